// Shared wire primitives of the OpenAPI document: brec's doubles, DateTimeOffset strings, GUIDs, .NET integers.
import { z } from '@hono/zod-openapi';
import type { WireDouble } from './json.js';

/**
 * Newtonsoft writes NaN/±Infinity as strings; documented honestly instead of pretending to be a plain number.
 * Inline (not a shared component) so every field keeps its own description.
 */
export const wireDoubleSchema = (description: string) =>
  // Typed number/double as brec's document does (code generators need a type); the strings are in the description.
  z.custom<WireDouble>((v) => typeof v === 'number' || v === 'NaN' || v === 'Infinity' || v === '-Infinity').openapi({
    type: 'number',
    format: 'double',
    description: `${description}. A double: NaN and ±Infinity are the strings "NaN", "Infinity", "-Infinity"`,
  });

export const DateTimeOffsetSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?[+-]\d{2}:\d{2}$/)
  .openapi('DateTimeOffset', {
    description: 'ISO 8601 with an explicit offset (UTC is +00:00, never Z); unset = 0001-01-01T00:00:00+00:00',
    example: '2024-03-17T04:34:56.123+00:00',
  });

export const GuidSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/).openapi({ format: 'uuid' });

export const Int32Schema = z.number().int().min(-2147483648).max(2147483647).openapi({ format: 'int32' });
export const Int64Schema = z.number().int().openapi({ format: 'int64' });
