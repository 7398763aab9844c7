// The config part of the GraphQL schema, generated from the FIELDS table so it always matches the REST config DTOs.
import { FIELDS, GLOBAL_FIELDS, ROOM_FIELDS, camelName, type FieldDef, type FieldName } from '../../config/fields.js';

/** GraphQL.NET's enum types: CLR names, values in CONSTANT_CASE; the wire (REST, config file) keeps the numbers. */
const ENUMS: Partial<Record<FieldName, { type: string; names: Record<number, string> }>> = {
  RecordMode: { type: 'RecordMode', names: { 0: 'STANDARD', 1: 'RAW_DATA' } },
  CuttingMode: { type: 'CuttingMode', names: { 0: 'DISABLED', 1: 'BY_TIME', 2: 'BY_SIZE' } },
  DanmakuTransport: { type: 'DanmakuTransportMode', names: { 0: 'RANDOM', 1: 'TCP', 2: 'WS', 3: 'WSS' } },
  NetworkTransportAllowedAddressFamily: { type: 'AllowedAddressFamily', names: { [-1]: 'SYSTEM', 0: 'ANY', 1: 'IPV4', 2: 'IPV6' } },
};

/** The scalar or enum of a field and the CLR type name brec's HierarchicalOptional_<T>_Type carries. */
function typeOf(field: FieldName): { gql: string; clr: string; nullable: boolean } {
  const def: FieldDef = FIELDS[field];
  const e = ENUMS[field];
  if (e) return { gql: e.type, clr: e.type, nullable: false };
  switch (def.kind) {
    case 'bool': return { gql: 'Boolean', clr: 'Boolean', nullable: false };
    case 'string': return { gql: 'String', clr: 'String', nullable: true };
    case 'int': return { gql: 'Int', clr: 'Int32', nullable: false };
    default: return { gql: 'UInt', clr: 'UInt32', nullable: false };
  }
}

const optionalTypeName = (field: FieldName, input: boolean): string =>
  `HierarchicalOptional${input ? 'Input' : ''}_${typeOf(field).clr}_Type`;

function optionalTypes(): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const f of GLOBAL_FIELDS) {
    const t = typeOf(f);
    if (seen.has(t.clr)) continue;
    seen.add(t.clr);
    out.push(`type ${optionalTypeName(f, false)} {\n  hasValue: Boolean!\n  value: ${t.gql}${t.nullable ? '' : '!'}\n}`);
    // Input values stay optional: `{hasValue: false}` needs none (brec requires one; accepting more breaks no client).
    out.push(`input ${optionalTypeName(f, true)} {\n  hasValue: Boolean!\n  value: ${t.gql}\n}`);
  }
  return out.join('\n\n');
}

const lines = (fields: readonly FieldName[], line: (f: FieldName) => string): string => fields.map((f) => `  ${line(f)}`).join('\n');

/** SDL of the enums, the optional wrappers and RoomConfig, GlobalConfig, DefaultConfig, SetRoomConfig, SetGlobalConfig. */
export function configSdl(): string {
  const enums = Object.values(ENUMS).map((e) => `enum ${e!.type} {\n${Object.values(e!.names).map((n) => `  ${n}`).join('\n')}\n}`);
  const optional = (f: FieldName) => `optional${f}: ${optionalTypeName(f, false)}!`;
  const optionalInput = (f: FieldName) => `optional${f}: ${optionalTypeName(f, true)}`;
  return [
    ...enums,
    optionalTypes(),
    `type RoomConfig {\n  roomId: Int!\n  autoRecord: Boolean!\n${lines(ROOM_FIELDS, optional)}\n}`,
    `type GlobalConfig {\n${lines(GLOBAL_FIELDS, optional)}\n}`,
    `type DefaultConfig {\n${lines(GLOBAL_FIELDS, (f) => `${camelName(f)}: ${typeOf(f).gql}${typeOf(f).nullable ? '' : '!'}`)}\n}`,
    `input SetRoomConfig {\n  autoRecord: Boolean\n${lines(ROOM_FIELDS, optionalInput)}\n}`,
    `input SetGlobalConfig {\n${lines(GLOBAL_FIELDS, optionalInput)}\n}`,
  ].join('\n\n');
}

/** A wire value (number for enums) as GraphQL shows it. */
export function toGraphqlValue(field: FieldName, value: unknown): unknown {
  const e = ENUMS[field];
  return e && typeof value === 'number' ? (e.names[value] ?? value) : value;
}

/** A GraphQL input value back to the wire form (enum names to their numbers). */
export function fromGraphqlValue(field: FieldName, value: unknown): unknown {
  const e = ENUMS[field];
  if (!e || typeof value !== 'string') return value;
  const hit = Object.entries(e.names).find(([, name]) => name === value);
  return hit ? Number(hit[0]) : value;
}
