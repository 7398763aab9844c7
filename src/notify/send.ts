// Sends one message to one target: HTTP POSTs for ntfy, Telegram, Bark and JSON; SMTP (STARTTLS) through nodemailer.
import type { Target } from './targets.js';
import { redactErrorText } from '../log/redact.js';

export interface NotifyMessage {
  title: string;
  body: string;
  /** notify kind: stream-start, stream-end, recording-error, unavailable, low-disk, job-failed, test. */
  kind: string;
  roomId: number | null;
}

export interface SendResult {
  target: string;
  ok: boolean;
  error: string | null;
}

async function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number, stop?: AbortSignal): Promise<void> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
  const res = await fetch(url, { method: 'POST', body, headers, signal, redirect: 'error' });
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
}

/** `stop` (a stopping service) cuts an HTTP send short; an SMTP session ends by its own timeouts. */
export async function sendTo(t: Target, m: NotifyMessage, timeoutMs = 10_000, stop?: AbortSignal): Promise<void> {
  switch (t.scheme) {
    case 'ntfy':
      return post(`${t.url}/${t.topic}`, m.body, {
        'content-type': 'text/plain; charset=utf-8', // Header values are ASCII: a title with other characters goes as an RFC 2047 word, which ntfy decodes.
        Title: /^[\x20-\x7e]*$/.test(m.title) ? m.title : `=?UTF-8?B?${Buffer.from(m.title).toString('base64')}?=`,
        Tags: m.kind, ...(t.auth ? { Authorization: t.auth } : {}),
      }, timeoutMs, stop);
    case 'tgram':
      return post(`${t.api}/bot${t.bot}/sendMessage`, JSON.stringify({ chat_id: t.chat, text: `${m.title}\n${m.body}` }), { 'content-type': 'application/json' }, timeoutMs, stop);
    case 'bark':
      return post(t.url, JSON.stringify({ title: m.title, body: m.body, group: 'liverec' }), { 'content-type': 'application/json; charset=utf-8' }, timeoutMs, stop);
    case 'json':
      return post(t.url, JSON.stringify({ title: m.title, body: m.body, kind: m.kind, roomId: m.roomId }), {
        'content-type': 'application/json', ...(t.auth ? { Authorization: t.auth } : {}),
      }, timeoutMs, stop);
    case 'mailto': {
      // Loaded on the first mail: nodemailer is a few MB of heap in a process that may never send one.
      const { createTransport } = await import('nodemailer');
      const transport = createTransport({
        host: t.host, port: t.port, secure: t.secure, requireTLS: !t.secure, auth: t.user ? { user: t.user, pass: t.pass } : undefined,
        tls: { rejectUnauthorized: t.verifyTls }, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs,
        logger: false, debug: false,
      });
      try {
        await transport.sendMail({ from: t.from, to: t.to, subject: m.title, text: m.body });
      } finally {
        transport.close();
      }
    }
  }
}

/** An error's text for logs, the job list and the notify-test answer: the target's secrets and every credential cut (src/log/redact.ts). */
export const redactError = (err: unknown, t?: Target): string => redactErrorText(err, t?.secrets ?? []);

/** Sends to every target at once; each result names the target without its secrets. */
export async function sendAll(targets: Target[], m: NotifyMessage, timeoutMs?: number): Promise<SendResult[]> {
  return Promise.all(targets.map(async (t) => {
    try {
      await sendTo(t, m, timeoutMs);
      return { target: t.redacted, ok: true, error: null };
    } catch (err) {
      return { target: t.redacted, ok: false, error: redactError(err, t) };
    }
  }));
}
