// The files whose FileClosed is in the webhook journal: crash recovery's proof that one was published before a kill.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MsgRecord } from './journal-records.js';
import { JOURNAL_RELATIVE_PATH } from './outbox.js';

/**
 * RelativePaths of every FileClosed message (v1 or v2) in `<workDir>/.liverec/webhook-outbox.jsonl`. A FileClosed
 * published just before a kill is still there (it cannot have been delivered, let alone compacted away, in the
 * same synchronous step). Empty when there is no file journal (no webhooks, or the cluster's outbox).
 */
export function journaledFileClosed(workDir: string): Set<string> {
  const out = new Set<string>();
  let text: string;
  try {
    text = readFileSync(join(workDir, JOURNAL_RELATIVE_PATH), 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    if (!line.includes('"FileClosed"')) continue;
    try {
      const rec = JSON.parse(line) as MsgRecord;
      if (rec.r !== 'msg' || rec.t !== 'FileClosed') continue;
      const body = JSON.parse(rec.b) as { RelativePath?: unknown; EventData?: { RelativePath?: unknown } };
      const path = body.EventData?.RelativePath ?? body.RelativePath;
      if (typeof path === 'string') out.add(path);
    } catch {
      // a torn last line names nothing
    }
  }
  return out;
}
