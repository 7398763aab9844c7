// XML text for danmaku files: brec's invalid-character filter, then escaping for text and attribute values.

// Unpaired surrogates; C0 controls except tab, LF, CR; DEL and C1 controls; U+FEFF, U+FFFE, U+FFFF (brec's list).
const INVALID = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFEFF\uFFFE\uFFFF]/g;

/** Removes characters XML cannot carry; a whitespace-only string becomes "" (as brec does). */
export function cleanXmlText(value: string): string {
  const cleaned = value.replace(INVALID, '');
  return cleaned.trim() === '' ? '' : cleaned;
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const ATTR_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '"': '&quot;', '\t': '&#x9;', '\n': '&#xA;', '\r': '&#xD;' };

/** Element content: cleaned and escaped. */
export function xmlText(value: string): string {
  return cleanXmlText(value).replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]!);
}

/** A double-quoted attribute value: cleaned and escaped (line breaks and tabs as character references). */
export function xmlAttr(value: string): string {
  return cleanXmlText(value).replace(/[&<>"\t\n\r]/g, (c) => ATTR_ESCAPES[c]!);
}

/** ` name="value"` pairs in the given order. */
export function attrs(pairs: readonly (readonly [string, string | number])[]): string {
  let out = '';
  for (const [name, value] of pairs) out += ` ${name}="${xmlAttr(String(value))}"`;
  return out;
}
