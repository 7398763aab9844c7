// zod schema of config.json version 3: PascalCase `{HasValue, Value}` overrides; errors name the offending field.
import { z } from 'zod';
import { FIELDS, FIELD_NAMES, type FieldDef, type FieldName } from './fields.js';
import { LiverecError } from '../errors.js';

function valueSchema(def: FieldDef): z.ZodType {
  switch (def.kind) {
    case 'bool': return z.boolean();
    case 'string': {
      const text = def.choices ? z.string().refine((v) => def.choices!.includes(v), { message: `must be one of ${def.choices.join(', ')}` }) : z.string();
      return def.nullable ? text.nullable() : text;
    }
    case 'int': return z.number().int().min(-0x80000000).max(0x7fffffff);
    case 'uint': return z.number().int().min(0).max(0xffffffff);
    case 'enum': return z.number().int().refine((v) => def.values!.includes(v), { message: `must be one of ${def.values!.join(', ')}` });
  }
}

const optionalShape = (fields: readonly FieldName[]): Record<string, z.ZodType> =>
  Object.fromEntries(
    fields.map((f) => [f, z.looseObject({ HasValue: z.boolean(), Value: valueSchema(FIELDS[f]).optional() }).optional()]),
  );

const globalFields = FIELD_NAMES.filter((f) => FIELDS[f].scope !== 'R');
const roomFields = FIELD_NAMES.filter((f) => FIELDS[f].scope !== 'G');

// Unknown members are kept (loose) so a newer brec's or a user's extra keys survive our saves.
export const configFileSchema = z.looseObject({
  $schema: z.string().optional(),
  version: z.literal(3, { message: 'only config version 3 (BililiveRecorder 2.x) is supported' }),
  global: z.looseObject(optionalShape(globalFields)).optional(),
  rooms: z.array(z.looseObject(optionalShape(roomFields))).optional(),
});

export type ConfigFile = z.infer<typeof configFileSchema>;

export class ConfigError extends LiverecError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CONFIG_INVALID', message, options);
    this.name = 'ConfigError';
  }
}

/** Parses config.json text; throws ConfigError naming the first offending field. */
export function parseConfigText(text: string, source: string): ConfigFile {
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    throw new ConfigError(`${source}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  const result = configFileSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.map(String).join('.') || '(root)';
    throw new ConfigError(`${source}: invalid field ${path}: ${issue.message}`);
  }
  return result.data;
}
