// Reads brec's XML tag-list format (`<BililiveRecorderFlv>`, optionally gzipped) into tags.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import type { XMLParser } from 'fast-xml-parser';
import { jsonToAmf } from '../amf-json.js';
import { FlvError } from '../errors.js';
import type { FlvTag, Nalu, TagExtra } from '../tag.js';
import { TAG_TYPE_BY_NAME, parseFlagText, parseNaluType } from './xml-tags.js';

/** The optional `<Meta>` block of an exported file. */
export interface XmlFlvMeta {
  version?: string;
  exportTime?: string;
  fileSize?: number;
  fileCreationTime?: string;
  fileModificationTime?: string;
}

export interface XmlFlvFile {
  meta: XmlFlvMeta | null;
  tags: FlvTag[];
  /** Script tags whose JSON could not be read (they get `script: null`, like an undecodable AMF body). */
  badScripts: number;
}

type Attrs = Record<string, string | undefined>;
type XmlTag = Attrs & { ScriptData?: string; BinaryData?: string; ExtraData?: Attrs; Nalus?: Attrs[] };

let parser: XMLParser | null = null;

/** Loaded on first use: `tool fix` on FLV input should not pay for the XML library at start-up. */
function xmlParser(): XMLParser {
  if (!parser) {
    const fxp = createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser');
    parser = new fxp.XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      parseAttributeValue: false,
      parseTagValue: false,
      trimValues: true,
      isArray: (name) => name === 'Tag' || name === 'Nalus',
    });
  }
  return parser;
}

const int = (v: string | undefined, what: string): number => {
  const n = Number(v);
  if (v === undefined || !Number.isInteger(n)) throw new FlvError('XML_FORMAT', `Tag attribute ${what} is missing or not an integer: ${v}`);
  return n;
};

function toTag(x: XmlTag, state: { badScripts: number }): FlvTag {
  const type = TAG_TYPE_BY_NAME[x.Type ?? ''];
  if (type === undefined) throw new FlvError('XML_FORMAT', `Unknown tag Type "${x.Type}"`);
  const tag: FlvTag = {
    type: type as FlvTag['type'], flag: parseFlagText(x.Flag), size: int(x.Size, 'Size'), timestamp: int(x.Timestamp, 'Timestamp'),
    index: -1, data: null, nalus: null, dataHash: x.DataHash ?? null, script: undefined, extra: undefined,
  };
  if (x.ScriptData !== undefined) {
    try {
      tag.script = jsonToAmf(String(x.ScriptData));
    } catch {
      tag.script = null;
      state.badScripts++;
    }
  } else if (type === 18) tag.script = null;
  if (x.BinaryData !== undefined) {
    const hex = String(x.BinaryData).replace(/\s+/g, '');
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new FlvError('XML_FORMAT', 'BinaryData is not hex');
    tag.data = Uint8Array.from(Buffer.from(hex, 'hex'));
  }
  if (x.Nalus) {
    tag.nalus = x.Nalus.map((n): Nalu => {
      const nalu: Nalu = { start: int(n.StartPosition, 'StartPosition'), fullSize: int(n.FullSize, 'FullSize'), type: parseNaluType(n.Type ?? '') };
      if (n.NaluHash) nalu.hash = n.NaluHash;
      return nalu;
    });
  }
  if (x.ExtraData && typeof x.ExtraData === 'object') {
    const e = x.ExtraData;
    const extra: TagExtra = {};
    if (e.FirstBytes !== undefined) extra.firstBytes = e.FirstBytes;
    if (e.CompositionTime !== undefined) extra.compositionTime = Number(e.CompositionTime);
    if (e.FinalTime !== undefined) extra.finalTime = Number(e.FinalTime);
    tag.extra = extra;
  }
  return tag;
}

/** Parses the XML text of a tag list. Throws FlvError('XML_FORMAT') when it is not one. */
export function parseXmlFlv(text: string): XmlFlvFile {
  let doc: Record<string, unknown>;
  try {
    doc = xmlParser().parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new FlvError('XML_FORMAT', `Not a valid XML document: ${(err as Error).message}`, { cause: err });
  }
  const root = doc['BililiveRecorderFlv'] as { Meta?: Record<string, string>; Tags?: { Tag?: XmlTag[] } | string } | undefined;
  if (!root || typeof root !== 'object') throw new FlvError('XML_FORMAT', 'The root element is not <BililiveRecorderFlv>.');
  const state = { badScripts: 0 };
  const tagsNode = typeof root.Tags === 'object' ? root.Tags.Tag ?? [] : [];
  const tags = tagsNode.map((x) => toTag(x, state));
  let meta: XmlFlvMeta | null = null;
  if (root.Meta && typeof root.Meta === 'object') {
    const m = root.Meta;
    meta = {};
    if (m.Version !== undefined) meta.version = String(m.Version);
    if (m.ExportTime !== undefined) meta.exportTime = String(m.ExportTime);
    if (m.FileSize !== undefined) meta.fileSize = Number(m.FileSize);
    if (m.FileCreationTime !== undefined) meta.fileCreationTime = String(m.FileCreationTime);
    if (m.FileModificationTime !== undefined) meta.fileModificationTime = String(m.FileModificationTime);
  }
  return { meta, tags, badScripts: state.badScripts };
}

/** True when the path names an XML tag list (`.xml`, `.xml.gz`, or any `.gz`, as brec's tool accepts). */
export function isXmlPath(path: string): boolean {
  return /\.(xml|gz)$/i.test(path);
}

/** Reads a `.xml` or gzipped (`.gz`) tag-list file. */
export function readXmlFlvFile(path: string): XmlFlvFile {
  let bytes: Buffer = readFileSync(path);
  if (/\.gz$/i.test(path)) {
    try {
      bytes = gunzipSync(bytes);
    } catch (err) {
      throw new FlvError('XML_FORMAT', `${path} is not valid gzip: ${(err as Error).message}`, { cause: err });
    }
  }
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return parseXmlFlv(text);
}
