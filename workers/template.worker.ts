// piscina task entry for file-name previews: renders off the main thread, so a heavy template never stalls the API.
import { generateFileName, type FileNameContext, type FileNameResult } from '../src/template/file-name.js';

export interface PreviewTask {
  ctx: FileNameContext;
  template: string | null | undefined;
}

export default function renderPreview(task: PreviewTask): FileNameResult {
  return generateFileName(task.ctx, { template: task.template, workDir: '/', sanitizeContext: false });
}
