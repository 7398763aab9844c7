// The settings editor shared by Settings (global) and Room detail (per-room overrides): effective value, source, override.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Optional } from '../types';

export type Values = Record<string, Optional>;

const ENUMS: Record<string, [number, string][]> = {
  recordMode: [[0, 'Standard'], [1, 'RawData']],
  cuttingMode: [[0, 'Disabled'], [1, 'By time (minutes)'], [2, 'By size (MiB)']],
  danmakuTransport: [[0, 'Random'], [1, 'Tcp'], [2, 'Ws'], [3, 'Wss']],
  networkTransportAllowedAddressFamily: [[-1, 'System'], [0, 'Any'], [1, 'IPv4'], [2, 'IPv6']],
};
const MULTILINE = new Set(['webHookUrls', 'webHookUrlsV2', 'titleFilterPatterns', 'userScript', 'fileNameRecordTemplate']);
const SECRET = new Set(['cookie']);

/** `optionalRecordMode` → `recordMode` (the key of /api/config/default). */
export const plainKey = (key: string): string => key.charAt(8).toLowerCase() + key.slice(9);

export interface ConfigFormProps {
  /** The overrides being edited (GET /api/config/global or /api/room/{id}/config), optional… keys only. */
  values: Values;
  /** What applies when this level has no override: [value, where it comes from]. */
  inherited(key: string): [unknown, string];
  defaults: Record<string, unknown>;
  onSave(changes: Values): Promise<void>;
  /** Extra content below a field (the template preview, the webhook test button). */
  extra?: (key: string, value: unknown) => ComponentChildren;
  idPrefix: string;
}

function Input({ id, kind, enumOf, value, multiline, secret, disabled, onChange }: {
  id: string; kind: string; enumOf?: [number, string][]; value: unknown; multiline: boolean; secret: boolean; disabled: boolean; onChange(v: unknown): void;
}) {
  if (enumOf) {
    return <select id={id} disabled={disabled} value={String(value)} onChange={(e) => onChange(Number(e.currentTarget.value))}>{enumOf.map(([v, l]) => <option value={String(v)}>{l}</option>)}</select>;
  }
  if (kind === 'boolean') return <input id={id} type="checkbox" disabled={disabled} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />;
  if (kind === 'number') return <input id={id} type="number" disabled={disabled} value={String(value ?? 0)} onInput={(e) => onChange(Number(e.currentTarget.value))} />;
  if (multiline) return <textarea id={id} rows={3} disabled={disabled} value={String(value ?? '')} onInput={(e) => onChange(e.currentTarget.value)} />;
  if (secret) return <input id={id} type="password" autocomplete="off" disabled={disabled} value={String(value ?? '')} onInput={(e) => onChange(e.currentTarget.value)} />;
  return <input id={id} type="text" disabled={disabled} value={String(value ?? '')} onInput={(e) => onChange(e.currentTarget.value)} />;
}

export function ConfigForm({ values, inherited, defaults, onSave, extra, idPrefix }: ConfigFormProps) {
  const [edits, setEdits] = useState<Values>({});
  const [saving, setSaving] = useState(false);
  useEffect(() => setEdits({}), [values]);
  const keys = Object.keys(values).filter((k) => k.startsWith('optional'));
  const current = (k: string): Optional => edits[k] ?? values[k];
  const set = (k: string, o: Optional): void => setEdits({ ...edits, [k]: o });
  const dirty = Object.keys(edits).length > 0;

  const save = async (e: Event) => {
    e.preventDefault();
    setSaving(true);
    try {
      await onSave(edits);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form class="config" onSubmit={save}>
      <div class="form-actions">
        <button type="submit" data-action="save" disabled={!dirty || saving}>{saving ? 'Saving…' : 'Save'}</button>
        <button type="button" disabled={!dirty} onClick={() => setEdits({})}>Discard</button>
        <span class="hint">{dirty ? `${Object.keys(edits).length} unsaved change(s)` : 'tick "override" to set a value at this level'}</span>
      </div>
      <table>
        <thead><tr><th>setting</th><th>override</th><th>value</th><th>effective</th></tr></thead>
        <tbody>
          {keys.map((k) => {
            const name = plainKey(k);
            const o = current(k);
            const [inh, source] = inherited(k);
            const kind = typeof defaults[name];
            const id = `${idPrefix}-${name}`;
            const shown = o.hasValue ? o.value : inh;
            return (
              <tr key={k} data-key={name}>
                <td><label for={id}>{name}</label></td>
                <td><input type="checkbox" aria-label={`override ${name}`} data-override={name} checked={o.hasValue} onChange={(e) => set(k, { hasValue: e.currentTarget.checked, value: e.currentTarget.checked ? inh : o.value })} /></td>
                <td>
                  <Input id={id} kind={kind} enumOf={ENUMS[name]} value={shown} multiline={MULTILINE.has(name)} secret={SECRET.has(name)} disabled={!o.hasValue} onChange={(v) => set(k, { hasValue: true, value: v })} />
                  {extra?.(name, shown)}
                </td>
                <td class="source">{o.hasValue ? 'this level' : source}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </form>
  );
}
