// onMetaData helpers: recognising the metadata script and reading or setting its fields.
import type { AmfValue } from './amf.js';

export type AmfMap = Map<string, AmfValue>;

/**
 * The metadata map of an onMetaData script, or null. Accepts brec's two forms:
 * [String "onMetaData", map] and the CDN quirk [String "onMetaData", map, Null].
 */
export function onMetaDataMap(values: readonly AmfValue[] | null | undefined): AmfMap | null {
  if (!values) return null;
  const first = values[0];
  if (!first || first.type !== 'String' || first.value !== 'onMetaData') return null;
  if (values.length !== 2 && !(values.length === 3 && values[2]!.type === 'Null')) return null;
  const v = values[1]!;
  return v.type === 'EcmaArray' || v.type === 'Object' ? v.value : new Map();
}

/** True when the values form an onMetaData script (either accepted form). */
export function isOnMetaData(values: readonly AmfValue[] | null | undefined): boolean {
  if (!values) return false;
  const first = values[0];
  if (!first || first.type !== 'String' || first.value !== 'onMetaData') return false;
  return values.length === 2 || (values.length === 3 && values[2]!.type === 'Null');
}

export function getNumber(map: AmfMap, key: string): number | undefined {
  const v = map.get(key);
  return v && v.type === 'Number' ? v.value : undefined;
}

export function getString(map: AmfMap, key: string): string | undefined {
  const v = map.get(key);
  return v && (v.type === 'String' || v.type === 'LongString') ? v.value : undefined;
}

export function setNumber(map: AmfMap, key: string, value: number): void {
  map.set(key, { type: 'Number', value });
}

export function setString(map: AmfMap, key: string, value: string): void {
  map.set(key, { type: 'String', value });
}

/** Builds a script body [String "onMetaData", EcmaArray map]. */
export function makeOnMetaData(map: AmfMap = new Map()): AmfValue[] {
  return [{ type: 'String', value: 'onMetaData' }, { type: 'EcmaArray', value: map }];
}
