// The document as brec's SDK code generator (bililive-rec-sdk.js) needs it to emit TypeScript that compiles.
import { SDK_OPERATIONS } from './openapi-brec-shape.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PREFIX = '#/components/schemas/';
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * RoomDto's members as the SDK's `class Room implements RoomDto` has them; liverec's other members (its extensions,
 * and `uid`, which brec 2.x added after that class) become optional here, so the class still implements the type.
 */
const SDK_ROOM_MEMBERS = new Set(['objectId', 'roomId', 'autoRecord', 'shortId', 'name', 'title', 'areaNameParent', 'areaNameChild',
  'recording', 'streaming', 'danmakuConnected', 'autoRecordForThisSession', 'recordingStats', 'ioStats']);

/** Replaces, everywhere below `node`, a $ref to a schema the generator declares no type for by the schema itself. */
function inline(node: unknown, schemas: Json, plain: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, schemas, plain));
  if (!node || typeof node !== 'object') return node;
  const o = node as Json;
  if (typeof o.$ref === 'string' && o.$ref.startsWith(PREFIX) && plain.has(o.$ref.slice(PREFIX.length))) {
    const { $ref, ...rest } = o;
    return { ...structuredClone(schemas[String($ref).slice(PREFIX.length)]), ...rest };
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, inline(v, schemas, plain)]));
}

/** A union of object schemas as one object, as brec's base class declares it: shared members required, the rest optional. */
function asClass(schema: Json, schemas: Json): Json {
  const variants = (schema.anyOf ?? schema.oneOf) as Json[];
  const resolved = variants.map((v) => (typeof v.$ref === 'string' ? schemas[v.$ref.slice(PREFIX.length)] : v) as Json);
  const properties: Json = {};
  for (const v of resolved) Object.assign(properties, v.properties);
  const required = Object.keys(properties).filter((k) => resolved.every((v) => (v.required as string[] | undefined)?.includes(k)));
  const { anyOf: _a, oneOf: _o, ...rest } = schema;
  return { ...rest, type: 'object', properties, required };
}

/**
 * The generator writes each member name as it stands and every member as required: a name that is no identifier
 * (the CLEF `@t`) goes out quoted, and a member that may be absent (a liverec extension of RoomDto, a subclass's
 * member on its base class, an optional quoted one) carries TypeScript's `?` in its name.
 */
function memberNames(schema: Json, optional: (key: string, required: boolean) => boolean): void {
  if (!schema.properties) return;
  const required = new Set<string>(schema.required ?? []);
  const properties: Json = {};
  const names: string[] = [];
  for (const [key, value] of Object.entries(schema.properties as Json)) {
    const absent = optional(key, required.has(key)) || (!IDENTIFIER.test(key) && !required.has(key));
    const name = `${IDENTIFIER.test(key) ? key : JSON.stringify(key)}${absent ? '?' : ''}`;
    properties[name] = value;
    if (required.has(key) && !absent) names.push(name);
  }
  schema.properties = properties;
  if (schema.required) schema.required = names;
}

/**
 * The document restricted to the operations brec's SDK generator knows (it refuses any other path, even brec's own
 * `/api/log/fetch`), with its schemas in the forms the generator turns into TypeScript that compiles: every $ref
 * names an object or enum schema (a named string such as DateTimeOffset is written in place), FileLikeDto is one
 * object as brec's class is, and member names as above. The wire format is the same as the full document's.
 */
export function sdkView(doc: Json): Json {
  const paths: Json = {};
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    const kept = Object.fromEntries(Object.entries(item as Json).filter(([, op]) => SDK_OPERATIONS.has((op as Json).operationId)));
    if (Object.keys(kept).length > 0) paths[path] = kept;
  }
  const original = (doc.components?.schemas ?? {}) as Json;
  const schemas: Json = {};
  const unions = new Set(Object.entries(original).filter(([, s]) => s.anyOf || s.oneOf).map(([name]) => name));
  for (const [name, schema] of Object.entries(original)) schemas[name] = unions.has(name) ? asClass(schema, original) : structuredClone(schema);
  const plain = new Set(Object.entries(schemas).filter(([, s]) => s.type !== 'object' && !s.enum).map(([name]) => name));
  for (const name of plain) delete schemas[name];
  const view = inline({ ...doc, paths, components: { ...doc.components, schemas } }, original, plain) as Json;
  for (const [name, schema] of Object.entries(view.components.schemas as Json)) {
    // A subclass's own members (FileDto's size and url on FileLikeDto) are optional on the base class.
    memberNames(schema, (key, required) => (name === 'RoomDto' && !SDK_ROOM_MEMBERS.has(key)) || (unions.has(name) && !required));
  }
  view.info = { ...view.info, description: `${view.info?.description ?? ''}\n\nThis view is shaped for brec's SDK code generator (bililive-rec-sdk.js): the full document is /swagger/brec/swagger.json.` };
  return view;
}
