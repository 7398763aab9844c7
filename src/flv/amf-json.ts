// brec's JSON form of AMF0 values ([{"Type":"Number","Value":1.0}, …]), used by the XML tag-list format.
import type { AmfValue } from './amf.js';
import { formatDotNetDate, formatDotNetDouble, parseDotNetDate } from './dotnet-format.js';
import { FlvError } from './errors.js';
import { type JsonNode, readJson } from './json-reader.js';

const str = (s: string): string => JSON.stringify(s);

function numberJson(v: number): string {
  // Newtonsoft writes non-finite doubles as strings.
  return Number.isFinite(v) ? formatDotNetDouble(v) : str(formatDotNetDouble(v));
}

function mapJson(map: Map<string, AmfValue>): string {
  const parts: string[] = [];
  for (const [k, v] of map) parts.push(`${str(k)}:${amfValueToJson(v)}`);
  return `{${parts.join(',')}}`;
}

/** One typed value in brec's JSON form, compact, keys in insertion order. */
export function amfValueToJson(v: AmfValue): string {
  switch (v.type) {
    case 'Number': return `{"Type":"Number","Value":${numberJson(v.value)}}`;
    case 'Boolean': return `{"Type":"Boolean","Value":${v.value}}`;
    case 'String': return `{"Type":"String","Value":${str(v.value)}}`;
    case 'LongString': return `{"Type":"LongString","Value":${str(v.value)}}`;
    case 'Object': return `{"Type":"Object","Value":${mapJson(v.value)}}`;
    case 'EcmaArray': return `{"Type":"EcmaArray","Value":${mapJson(v.value)}}`;
    case 'StrictArray': return `{"Type":"StrictArray","Value":[${v.value.map(amfValueToJson).join(',')}]}`;
    case 'Null': return '{"Type":"Null"}';
    case 'Undefined': return '{"Type":"Undefined"}';
    case 'Reference': return `{"Type":"Reference","Value":${v.value}}`;
    case 'Date': return `{"Type":"Date","Value":${str(formatDotNetDate(v.value, v.offset))}}`;
  }
}

/** A script body (list of values) in brec's JSON form. */
export function amfToJson(values: readonly AmfValue[]): string {
  return `[${values.map(amfValueToJson).join(',')}]`;
}

const bad = (what: string): never => {
  throw new FlvError('XML_FORMAT', `Script JSON: ${what}`);
};

function field(node: JsonNode, name: string): JsonNode | undefined {
  if (node.kind !== 'object') return undefined;
  for (const [k, v] of node.entries) if (k === name) return v;
  return undefined;
}

function toNumber(n: JsonNode | undefined): number {
  if (n?.kind === 'number') return n.value;
  if (n?.kind === 'string') {
    if (n.value === 'NaN') return NaN;
    if (n.value === 'Infinity') return Infinity;
    if (n.value === '-Infinity') return -Infinity;
  }
  return bad('number expected');
}

function toMap(n: JsonNode | undefined): Map<string, AmfValue> {
  if (n?.kind !== 'object') return bad('object expected');
  const map = new Map<string, AmfValue>();
  for (const [k, v] of n.entries) map.set(k, jsonToAmfValue(v));
  return map;
}

/** Converts one typed JSON node back into an AMF value. */
export function jsonToAmfValue(node: JsonNode): AmfValue {
  const type = field(node, 'Type');
  if (type?.kind !== 'string') return bad('value without "Type"');
  const value = field(node, 'Value');
  switch (type.value) {
    case 'Number': return { type: 'Number', value: toNumber(value) };
    case 'Boolean': return { type: 'Boolean', value: value?.kind === 'bool' ? value.value : bad('boolean expected') };
    case 'String': return { type: 'String', value: value?.kind === 'string' ? value.value : bad('string expected') };
    case 'LongString': return { type: 'LongString', value: value?.kind === 'string' ? value.value : bad('string expected') };
    case 'Object': return { type: 'Object', value: toMap(value) };
    case 'EcmaArray': return { type: 'EcmaArray', value: toMap(value) };
    case 'StrictArray':
      if (value?.kind !== 'array') return bad('array expected');
      return { type: 'StrictArray', value: value.items.map(jsonToAmfValue) };
    case 'Null': return { type: 'Null' };
    case 'Undefined': return { type: 'Undefined' };
    case 'Reference': return { type: 'Reference', value: toNumber(value) };
    case 'Date': {
      const d = value?.kind === 'string' ? parseDotNetDate(value.value) : null;
      return d ? { type: 'Date', value: d.value, offset: d.offset } : bad('date expected');
    }
    default: return bad(`unknown type ${type.value}`);
  }
}

/** Parses brec's JSON form of a script body. Throws FlvError('XML_FORMAT') when malformed. */
export function jsonToAmf(text: string): AmfValue[] {
  const root = readJson(text);
  if (root.kind !== 'array') return bad('top level must be an array');
  return root.items.map(jsonToAmfValue);
}
