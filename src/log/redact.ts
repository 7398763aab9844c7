// The one redaction rule for text that leaves the process (error texts, job errors, notify-test answers, logs): no secret in it.
import { redactUrl } from '../webhook/redact-url.js';

/*
 * Why one rule: a notification, upload or command error is shown in the notify-test answer, GET /api/jobs, the log
 * file and the event stream; each had its own cut (or none), and a `tgram://…?api=` target without a scheme put the
 * bot token into "Failed to parse URL from host/bot<TOKEN>/sendMessage". Every such text now passes here:
 * - the caller's known secrets (a target's token, password, key), as sent and percent-encoded, become `…`;
 * - every http(s) URL becomes its redacted form, the same as webhook and target URLs (origin, `/…`, `#tag`);
 * - credentials in a URL (`//user:pass@`), secret-named query values and Telegram bot tokens become `…`.
 * Texts are cut to MAX_CHARS first, so the scan stays short whatever an error carries.
 */
const MAX_CHARS = 2000;
/** Secrets shorter than this are not searched for: they would cut ordinary words out of the text. */
const MIN_SECRET = 4;
/** http(s) and ws(s) URLs: what a request error quotes (a target's own shown form, `ntfy://host/topic`, is left as it is). */
const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'<>]+/gi;
const USERINFO = /\/\/[^@\s/]*@/g;
const SECRET_QUERY = /([?&;](?:token|key|api_?key|access_?token|secret|password|passwd|pass|sig|signature|auth|code)=)[^&\s#"']*/gi;
/** `123456:AAE…`, the shape of a Telegram bot token. */
const BOT_TOKEN = /\b\d{5,}:[A-Za-z0-9_-]{20,}/g;

/** `text` without the given secrets or anything shaped like a credential. */
export function redactSecrets(text: string, secrets: Iterable<string> = []): string {
  let out = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}…` : text;
  for (const s of secrets) {
    if (s.length < MIN_SECRET) continue;
    for (const form of new Set([s, encodeURIComponent(s), encodeURI(s)])) out = out.split(form).join('…');
  }
  return out
    .replace(URL_IN_TEXT, (url) => redactUrl(url))
    .replace(USERINFO, '//…@')
    .replace(SECRET_QUERY, '$1…')
    .replace(BOT_TOKEN, '…');
}

/** An error's message through the rule above. */
export const redactErrorText = (err: unknown, secrets: Iterable<string> = []): string =>
  redactSecrets((err as Error)?.message ?? String(err), secrets);
