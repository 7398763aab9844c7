// Live preview of the file-name template through POST /api/misc/generateFileName (with sample room data).
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { t } from '../i18n';

interface Output { status: number; errorMessage: string | null; relativePath: string }

const SAMPLE = { roomId: 23058, shortId: 3, name: 'streamer', uid: 11153765, title: 'a live title', areaParent: '生活', areaChild: '日常', partIndex: 1, qn: 10000, json: '{}' };

export function TemplatePreview({ template }: { template: string }) {
  const [out, setOut] = useState<Output | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const t = setTimeout(() => {
      api<Output>('POST', 'api/misc/generateFileName', { template, context: SAMPLE })
        .then((o) => (setOut(o), setError(null)), (e: Error) => setError(e.message));
    }, 250);
    return () => clearTimeout(t);
  }, [template]);
  if (error) return <p class="preview error">{error}</p>;
  if (!out) return <p class="preview">…</p>;
  return (
    <p class={`preview ${out.status ? 'error' : ''}`} data-preview>
      {t('preview.label')} <code>{out.relativePath}</code>{out.status ? ` (${t(`preview.status.${out.status}`)}: ${out.errorMessage ?? ''})` : ''}
    </p>
  );
}
