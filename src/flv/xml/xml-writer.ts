// Writes brec's XML tag-list format, laid out the way brec's XmlSerializer output looks.
import { isHevcBody } from '../codecs/video-format.js';
import { amfToJson } from '../amf-json.js';
import { type FlvTag, TagFlag } from '../tag.js';
import type { XmlFlvMeta } from './xml-reader.js';
import { TAG_TYPE_NAME, flagText, naluTypeText } from './xml-tags.js';

const escAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const escText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const hex = (d: Uint8Array): string => Buffer.from(d.buffer, d.byteOffset, d.length).toString('hex').toUpperCase();

export const XML_PROLOGUE =
  '<?xml version="1.0" encoding="utf-8"?>\n' +
  '<BililiveRecorderFlv xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n';

/** The `<Meta>` block (two-space indented, with a trailing newline). */
export function metaXml(meta: XmlFlvMeta): string {
  const rows: string[] = [];
  if (meta.version !== undefined) rows.push(`    <Version>${escText(meta.version)}</Version>`);
  if (meta.exportTime !== undefined) rows.push(`    <ExportTime>${escText(meta.exportTime)}</ExportTime>`);
  if (meta.fileSize !== undefined) rows.push(`    <FileSize>${meta.fileSize}</FileSize>`);
  if (meta.fileCreationTime !== undefined) rows.push(`    <FileCreationTime>${escText(meta.fileCreationTime)}</FileCreationTime>`);
  if (meta.fileModificationTime !== undefined) rows.push(`    <FileModificationTime>${escText(meta.fileModificationTime)}</FileModificationTime>`);
  return `  <Meta>\n${rows.join('\n')}\n  </Meta>\n`;
}

/**
 * One `<Tag>` element (4-space indented, trailing newline). BinaryData is written only for header tags,
 * Nalus only for video, ScriptData only for decodable scripts; Flag is omitted when None.
 */
export function tagXml(t: FlvTag): string {
  let head = `    <Tag Type="${TAG_TYPE_NAME[t.type] ?? t.type}"`;
  const flag = flagText(t.flag);
  if (flag) head += ` Flag="${flag}"`;
  head += ` Size="${t.size}" Timestamp="${t.timestamp}"`;
  if (t.dataHash) head += ` DataHash="${escAttr(t.dataHash)}"`;
  const children: string[] = [];
  if (t.script) children.push(`      <ScriptData>${escText(amfToJson(t.script))}</ScriptData>`);
  if (t.extra) {
    let e = '      <ExtraData';
    if (t.extra.firstBytes !== undefined) e += ` FirstBytes="${escAttr(t.extra.firstBytes)}"`;
    if (t.extra.compositionTime !== undefined) e += ` CompositionTime="${t.extra.compositionTime}"`;
    if (t.extra.finalTime !== undefined) e += ` FinalTime="${t.extra.finalTime}"`;
    children.push(`${e} />`);
  }
  if (t.nalus) {
    const hevc = isHevcBody(t.data);
    for (const n of t.nalus) {
      const h = n.hash ? ` NaluHash="${escAttr(n.hash)}"` : '';
      children.push(`      <Nalus StartPosition="${n.start}" FullSize="${n.fullSize}" Type="${naluTypeText(n.type, hevc)}"${h} />`);
    }
  }
  if (t.flag & TagFlag.Header && t.data) children.push(`      <BinaryData>${hex(t.data)}</BinaryData>`);
  if (children.length === 0) return `${head} />\n`;
  return `${head}>\n${children.join('\n')}\n    </Tag>\n`;
}

/** A whole document for one tag list. */
export function flvToXml(tags: readonly FlvTag[], meta: XmlFlvMeta | null = null): string {
  let s = XML_PROLOGUE;
  if (meta) s += metaXml(meta);
  if (tags.length === 0) return `${s}  <Tags />\n</BililiveRecorderFlv>\n`;
  s += '  <Tags>\n';
  for (const t of tags) s += tagXml(t);
  return `${s}  </Tags>\n</BililiveRecorderFlv>\n`;
}

export const XML_EPILOGUE = '  </Tags>\n</BililiveRecorderFlv>\n';
