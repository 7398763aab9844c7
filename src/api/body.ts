// Request bodies read like brec's Newtonsoft binding: property names match case-insensitively; unknown members are ignored.
import { z } from '@hono/zod-openapi';

function canonicalKeys(value: unknown, names: Map<string, string>): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const name = names.get(key.toLowerCase());
    // The exact spelling wins over a case variant when both are sent.
    if (name && (key === name || !(name in out))) out[name] = v;
  }
  return out;
}

/** Wraps an object schema so `RoomId` or `ROOMID` bind to `roomId`; the document still shows the camelCase shape. */
export function caseInsensitive<T extends z.ZodObject>(schema: T) {
  const names = new Map(Object.keys(schema.shape).map((k) => [k.toLowerCase(), k]));
  return z.preprocess((v) => canonicalKeys(v, names), schema);
}
