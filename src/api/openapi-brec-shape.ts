// Gives the generated document brec's shape for code generators: two room path families, operationIds, no bare maps.
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROOM = '/api/room/{id}';

/** brec's operation names (as its SDK generator names them), by `METHOD path`; other operations get derived names. */
const BREC_OPERATIONS: Record<string, string> = {
  'GET /api/config/default': 'getDefaultConfig',
  'GET /api/config/global': 'getGlobalConfig',
  'POST /api/config/global': 'setGlobalConfig',
  'GET /api/room': 'listRooms',
  'POST /api/room': 'addRoom',
  'GET /api/version': 'getVersion',
  'GET /api/file': 'getFile',
  'POST /api/misc/generatefilename': 'generateFilename',
  'GET /api/log/fetch': 'fetchLogs',
};
/** Per-room operations: the name's stem, then `ByRoomId` or `ByObjectId`. */
const ROOM_OPERATIONS: Record<string, string> = {
  'GET ': 'getRoom', 'DELETE ': 'removeRoom', 'GET /stats': 'getRoomRecordingStats', 'GET /iostats': 'getRoomIoStats',
  'GET /config': 'getRoomConfig', 'POST /config': 'setRoomConfig', 'POST /start': 'startRecord', 'POST /stop': 'stopRecord',
  'POST /split': 'splitRecord', 'POST /refresh': 'refreshRoom',
};

const FAMILIES = [
  { name: 'roomId', suffix: 'ByRoomId', schema: { type: 'integer', format: 'int32' }, description: 'Room id or short id', example: 21452505 },
  { name: 'objectId', suffix: 'ByObjectId', schema: { type: 'string', format: 'uuid' }, description: 'The room\'s objectId (changes on every start); liverec also accepts the N, B and P forms', example: '6f1ce9e5-1e7a-4b5c-9a43-4b0f2f0c5d11' },
] as const;

/** `GET /api/webhook/deliveries` → `getApiWebhookDeliveries`: unique and stable for routes without a brec name. */
const derived = (method: string, path: string): string =>
  method + path.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');

const isLiteral = (s: Json): boolean => (s?.type === 'number' || s?.type === 'integer') && Array.isArray(s.enum) && s.enum.every(Number.isInteger);

/**
 * Schema forms generators for brec's document read badly, in the forms brec's own document uses: objects described
 * only by additionalProperties get an explicit (empty) property list; a union of integer literals becomes one integer
 * enum; an integer-valued number enum is typed integer; a boolean literal is a boolean (its value said in words).
 */
function generatorForms(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) return schema.forEach(generatorForms);
  const s = schema as Json;
  if (s.type === 'object' && s.additionalProperties !== undefined && s.properties === undefined) s.properties = {};
  const union = s.anyOf ?? s.oneOf;
  if (Array.isArray(union) && union.length > 0 && union.every(isLiteral)) {
    const values = union.flatMap((u: Json) => u.enum as number[]);
    delete s.anyOf;
    delete s.oneOf;
    Object.assign(s, { type: 'integer', enum: values });
  }
  if (isLiteral(s)) s.type = 'integer';
  if (s.type === 'boolean' && Array.isArray(s.enum)) {
    s.description = `${s.description ? `${s.description}. ` : ''}Always ${s.enum.join(' or ')}`;
    delete s.enum;
  }
  for (const v of Object.values(s)) generatorForms(v);
}

/** The operations brec's SDK generator knows (its list predates `/api/log/fetch`). */
export const SDK_OPERATIONS = new Set([
  ...Object.values(BREC_OPERATIONS).filter((id) => id !== 'fetchLogs'),
  ...Object.values(ROOM_OPERATIONS).flatMap((stem) => FAMILIES.map((f) => stem + f.suffix)),
]);

/** Rewrites the document in place and returns it. */
export function brecShape(doc: Json): Json {
  const paths: Json = {};
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    if (!path.startsWith(ROOM)) {
      for (const [method, op] of Object.entries(item as Json)) op.operationId ??= BREC_OPERATIONS[`${method.toUpperCase()} ${path}`] ?? derived(method, path);
      paths[path] = item;
      continue;
    }
    const rest = path.slice(ROOM.length);
    for (const f of FAMILIES) {
      const copy: Json = {};
      for (const [method, op] of Object.entries(item as Json)) {
        const stem = ROOM_OPERATIONS[`${method.toUpperCase()} ${rest}`];
        copy[method] = {
          ...op,
          operationId: stem ? stem + f.suffix : derived(method, `/api/room/${f.suffix}${rest}`),
          parameters: (op.parameters as Json[] | undefined)?.map((p) => (p.in === 'path' && p.name === 'id'
            ? { name: f.name, in: 'path', required: true, description: f.description, schema: { ...f.schema, example: f.example } }
            : p)),
        };
      }
      paths[`/api/room/{${f.name}}${rest}`] = copy;
    }
  }
  doc.paths = paths;
  generatorForms(doc.components);
  generatorForms(doc.paths);
  // brec's GenerateFileNameInput.context is nullable; a $ref cannot carry `nullable` in OpenAPI 3.0, its target can.
  const context = doc.components?.schemas?.FileNameTemplateContextDto as Json | undefined;
  if (context) context.nullable = true;
  return doc;
}
