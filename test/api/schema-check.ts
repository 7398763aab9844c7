// A strict validator of JSON values against the OpenAPI 3.0 schemas of our document (the keywords it uses, no more).
// Unknown keywords throw, so a schema feature this checker ignores can never make a test pass silently.

type Schema = Record<string, unknown>;
const ANNOTATIONS = new Set(['description', 'example', 'title', 'default', 'deprecated', 'readOnly', 'writeOnly']);
const KNOWN = new Set(['$ref', 'type', 'nullable', 'enum', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'oneOf',
  'allOf', 'pattern', 'format', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', ...ANNOTATIONS]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class SchemaChecker {
  constructor(private readonly doc: Record<string, any>) {}

  private deref(schema: Schema): Schema {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    const name = ref.replace('#/components/schemas/', '');
    const target = this.doc.components?.schemas?.[name];
    if (!target) throw new Error(`unresolved $ref ${ref}`);
    return target as Schema;
  }

  /** Errors of `value` against `schema` ([] = valid). Objects without additionalProperties are closed. */
  check(schema: Schema, value: unknown, at = '$'): string[] {
    for (const k of Object.keys(schema)) if (!KNOWN.has(k)) throw new Error(`schema-check does not support keyword "${k}" at ${at}`);
    if (schema.$ref) return this.check(this.deref(schema), value, at);
    if (value === null) return schema.nullable === true || schema.type === undefined && !schema.anyOf && !schema.oneOf && !schema.allOf && !schema.enum ? [] : [`${at}: null not allowed`];
    const errors: string[] = [];
    if (schema.allOf) for (const s of schema.allOf as Schema[]) errors.push(...this.check(s, value, at));
    if (schema.anyOf && !(schema.anyOf as Schema[]).some((s) => this.check(s, value, at).length === 0)) errors.push(`${at}: matches none of anyOf`);
    if (schema.oneOf && (schema.oneOf as Schema[]).filter((s) => this.check(s, value, at).length === 0).length !== 1) errors.push(`${at}: does not match exactly one of oneOf`);
    if (schema.enum && !(schema.enum as unknown[]).some((e) => e === value)) errors.push(`${at}: ${JSON.stringify(value)} not in enum ${JSON.stringify(schema.enum)}`);
    // A double on the wire may be one of Newtonsoft's strings, as the document's descriptions say.
    if (schema.type === 'number' && schema.format === 'double' && (value === 'NaN' || value === 'Infinity' || value === '-Infinity')) return errors;
    switch (schema.type) {
      case undefined: break;
      case 'string':
        if (typeof value !== 'string') return [...errors, `${at}: expected string, got ${typeof value}`];
        if (schema.pattern && !new RegExp(schema.pattern as string).test(value)) errors.push(`${at}: "${value}" does not match ${schema.pattern}`);
        if (schema.format === 'uuid' && !UUID.test(value)) errors.push(`${at}: "${value}" is not a uuid`);
        if (typeof schema.minLength === 'number' && value.length < schema.minLength) errors.push(`${at}: too short`);
        if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) errors.push(`${at}: too long`);
        break;
      case 'number':
      case 'integer':
        if (typeof value !== 'number' || !Number.isFinite(value)) return [...errors, `${at}: expected ${schema.type}, got ${JSON.stringify(value)}`];
        if (schema.type === 'integer' && !Number.isInteger(value)) errors.push(`${at}: ${value} is not an integer`);
        if (schema.format === 'int32' && (value < -2147483648 || value > 2147483647)) errors.push(`${at}: ${value} outside int32`);
        if (schema.format === 'int64' && !Number.isSafeInteger(value)) errors.push(`${at}: ${value} not a safe int64`);
        if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${at}: ${value} < ${schema.minimum}`);
        if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${at}: ${value} > ${schema.maximum}`);
        break;
      case 'boolean':
        if (typeof value !== 'boolean') errors.push(`${at}: expected boolean, got ${JSON.stringify(value)}`);
        break;
      case 'array':
        if (!Array.isArray(value)) return [...errors, `${at}: expected array`];
        if (typeof schema.minItems === 'number' && value.length < schema.minItems) errors.push(`${at}: too few items`);
        if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) errors.push(`${at}: too many items`);
        if (schema.items) value.forEach((v, i) => errors.push(...this.check(schema.items as Schema, v, `${at}[${i}]`)));
        break;
      case 'object': {
        if (typeof value !== 'object' || Array.isArray(value)) return [...errors, `${at}: expected object`];
        const obj = value as Record<string, unknown>;
        const props = (schema.properties ?? {}) as Record<string, Schema>;
        for (const r of (schema.required ?? []) as string[]) if (!(r in obj)) errors.push(`${at}.${r}: required`);
        for (const [k, v] of Object.entries(obj)) {
          if (props[k]) errors.push(...this.check(props[k], v, `${at}.${k}`));
          else if (schema.additionalProperties === undefined || schema.additionalProperties === false) errors.push(`${at}.${k}: not in the schema`);
          else if (typeof schema.additionalProperties === 'object') errors.push(...this.check(schema.additionalProperties as Schema, v, `${at}.${k}`));
        }
        break;
      }
      default:
        throw new Error(`schema-check: unknown type ${String(schema.type)} at ${at}`);
    }
    return errors;
  }

  /** The documented response schema of an operation, or undefined when that status is not documented. */
  /** `/api/room/{id}…` names both of brec's path families ({roomId} and {objectId}), which answer alike. */
  responseSchema(method: string, template: string, status: number): Schema | undefined {
    const op = this.doc.paths?.[template.replace('/api/room/{id}', '/api/room/{roomId}')]?.[method.toLowerCase()];
    if (!op) throw new Error(`no operation ${method} ${template} in the document`);
    return op.responses?.[String(status)]?.content?.['application/json']?.schema;
  }

  /** Asserts a response matches its documented status, content type and schema; returns the parsed body. */
  async expectDocumented(res: Response, method: string, template: string): Promise<unknown> {
    const text = await res.text();
    const schema = this.responseSchema(method, template, res.status);
    if (!schema) throw new Error(`${method} ${template}: status ${res.status} is not documented (body ${text.slice(0, 200)})`);
    if (res.headers.get('content-type') !== 'application/json; charset=utf-8') {
      throw new Error(`${method} ${template}: content-type ${res.headers.get('content-type')}`);
    }
    const body = JSON.parse(text) as unknown;
    const errors = this.check(schema, body);
    if (errors.length) throw new Error(`${method} ${template} ${res.status} does not match the document:\n${errors.slice(0, 10).join('\n')}`);
    return body;
  }
}
