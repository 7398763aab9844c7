// Config DTOs generated from the FIELDS table: plain defaults, `optional<Name>: {hasValue, value}` reads and writes.
import { z } from '@hono/zod-openapi';
import { FIELDS, GLOBAL_FIELDS, ROOM_FIELDS, camelName, typeDefault, type FieldDef, type FieldName } from '../config/fields.js';
import type { Overrides } from '../config/store.js';
import { caseInsensitive } from './body.js';

/** brec's names of its config enums (named schemas, so generated clients get one type per enum). */
const ENUM_NAMES: Partial<Record<FieldName, string>> = {
  RecordMode: 'RecordMode', CuttingMode: 'CuttingMode', DanmakuTransport: 'DanmakuTransportMode', NetworkTransportAllowedAddressFamily: 'AllowedAddressFamily',
};
const enumSchemas = new Map<FieldName, z.ZodType>();

function valueSchema(field: FieldName): z.ZodType {
  const def: FieldDef = FIELDS[field];
  switch (def.kind) {
    case 'bool': return z.boolean();
    case 'string': {
      // A choice is an enum in the document (its values are the UI's select): clients and the UI read one list.
      const text = def.choices ? z.enum(def.choices as [string, ...string[]]) : z.string();
      return def.nullable ? text.nullable() : text;
    }
    case 'int': return z.number().int().min(-2147483648).max(2147483647).openapi({ format: 'int32' });
    case 'uint': return z.number().int().min(0).max(0xffffffff).openapi({ format: 'int64', description: 'uint' });
    case 'enum': {
      const values = def.values!;
      const hit = enumSchemas.get(field);
      if (hit) return hit;
      const schema = z.number().int().refine((v) => values.includes(v), { message: `expected one of ${values.join(', ')}` });
      const name = ENUM_NAMES[field];
      const named = name ? schema.openapi(name, { enum: [...values], format: 'int32' }) : schema.openapi({ enum: [...values] });
      enumSchemas.set(field, named);
      return named;
    }
  }
}

const optionalKey = (field: FieldName): string => `optional${field}`;

const describe = (field: FieldName): string => {
  const def: FieldDef = FIELDS[field];
  const scope = def.scope === 'RG' ? 'room-overridable' : 'global only';
  return `${field} (${scope}${def.liverec ? ', liverec addition' : ''}); default ${JSON.stringify(def.default)}`;
};

function readShape(fields: readonly FieldName[]): Record<string, z.ZodType> {
  return Object.fromEntries(fields.map((f) => [optionalKey(f), z.object({ hasValue: z.boolean(), value: valueSchema(f) }).openapi({
    description: `${describe(f)}. hasValue false carries the type default, not the inherited value`,
  })]));
}

function writeShape(fields: readonly FieldName[]): Record<string, z.ZodType> {
  return Object.fromEntries(fields.map((f) => [optionalKey(f), caseInsensitive(z.object({
    hasValue: z.boolean().optional(),
    value: valueSchema(f).optional(),
  })).nullable().optional().openapi({
    description: `${describe(f)}. Absent or null: unchanged; hasValue true: set (value absent = type default); hasValue false: inherit`,
  })]));
}

export const DefaultConfigSchema = z
  .object(Object.fromEntries(GLOBAL_FIELDS.map((f) => [camelName(f), valueSchema(f).openapi({ description: describe(f) })])))
  .openapi('DefaultConfig');
export const GlobalConfigSchema = z.object(readShape(GLOBAL_FIELDS)).openapi('GlobalConfigDto');
export const SetGlobalConfigSchema = caseInsensitive(z.object(writeShape(GLOBAL_FIELDS)).openapi('SetGlobalConfig'));
export const RoomConfigSchema = z.object({ autoRecord: z.boolean(), ...readShape(ROOM_FIELDS) }).openapi('RoomConfigDto');
export const SetRoomConfigSchema = caseInsensitive(
  z.object({ autoRecord: z.boolean().nullable().optional(), ...writeShape(ROOM_FIELDS) }).openapi('SetRoomConfig'),
);

type Optional = { hasValue: boolean; value: unknown };

export function defaultConfigDto(): Record<string, unknown> {
  return Object.fromEntries(GLOBAL_FIELDS.map((f) => [camelName(f), FIELDS[f].default]));
}

/** `{hasValue, value}` per field from an overrides object (key present = hasValue). */
export function optionalsDto(overrides: Overrides, fields: readonly FieldName[]): Record<string, Optional> {
  return Object.fromEntries(fields.map((f) => [optionalKey(f), f in overrides
    ? { hasValue: true, value: overrides[f] ?? typeDefault(f) }
    : { hasValue: false, value: typeDefault(f) }]));
}

/** Applies a validated Set*Config body to an overrides object; returns the names of the fields it changed. */
export function applyOptionals(overrides: Overrides, body: Record<string, unknown>, fields: readonly FieldName[]): FieldName[] {
  const changed: FieldName[] = [];
  for (const f of fields) {
    const opt = body[optionalKey(f)] as { hasValue?: boolean; value?: unknown } | null | undefined;
    if (opt === undefined || opt === null) continue;
    if (opt.hasValue) overrides[f] = opt.value === undefined ? typeDefault(f) : opt.value;
    else delete overrides[f];
    changed.push(f);
  }
  return changed;
}
