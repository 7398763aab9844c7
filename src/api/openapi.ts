// The OpenAPI 3.0 document (brec's "brec" document at /swagger/brec/swagger.{json,yaml}), built once and cached.
import { VERSION } from '../version.js';
import type { ApiApp } from './context.js';
import { JSON_CONTENT_TYPE } from './json.js';
import { brecShape } from './openapi-brec-shape.js';
import { sdkView } from './openapi-sdk-view.js';

const DESCRIPTION = [
  '录播姬 (BililiveRecorder) 兼容的 REST API，由 liverec 实现。objectId 每次启动时重新生成，不会保存到设置文件。',
  '',
  `A BililiveRecorder 2.x compatible REST API implemented by liverec ${VERSION}. objectId is regenerated on every start`,
  'and never saved to the config file. Doubles may be the strings "NaN", "Infinity" or "-Infinity"; DateTimeOffset',
  'values carry an explicit offset (UTC as +00:00) and 0001-01-01T00:00:00+00:00 means unset. Paths match',
  'case-insensitively and tolerate a trailing slash. liverec answers unknown /api paths with a JSON 404.',
].join('\n');

export interface OpenApiDocument {
  object(): Record<string, unknown>;
  json(): string;
  /** Loads the YAML writer on first use: most processes never serve this, and it costs the main thread ~1 MB of heap. */
  yaml(): Promise<string>;
  /** The operations brec's SDK generator knows, for its SWAGGER_URL (see sdkView). */
  sdkJson(): string;
}

/** Generated lazily on first use (after every route is registered) and kept: the document never changes at runtime. */
export function openApiDocument(app: ApiApp): OpenApiDocument {
  app.openAPIRegistry.registerComponent('securitySchemes', 'basicAuth', {
    type: 'http', scheme: 'basic', description: 'Required when --http-basic-user/--http-basic-pass (or BREC_HTTP_BASIC_USER/PASS) are set',
  });
  let doc: Record<string, unknown> | null = null;
  let json: string | null = null;
  let yaml: Promise<string> | null = null;
  let sdk: string | null = null;
  const object = (): Record<string, unknown> => {
    doc ??= brecShape(app.getOpenAPIDocument({
      openapi: '3.0.3',
      info: { title: '录播姬 REST API', version: 'v1', description: DESCRIPTION },
      security: [{}, { basicAuth: [] }],
    }) as unknown as Record<string, unknown>);
    return doc;
  };
  return {
    object,
    json: () => (json ??= JSON.stringify(object())),
    sdkJson: () => (sdk ??= JSON.stringify(sdkView(object()))),
    // YAML 1.1 output so 1.1 readers do not take strings such as "yes" for booleans.
    yaml: () => (yaml ??= import('yaml').then(({ default: YAML }) => YAML.stringify(object(), { version: '1.1' }))),
  };
}

export function registerOpenApiRoutes(app: ApiApp, doc: OpenApiDocument): void {
  app.get('/swagger/brec/swagger.json', (c) => c.body(doc.json(), 200, { 'content-type': JSON_CONTENT_TYPE }));
  app.get('/swagger/brec-sdk/swagger.json', (c) => c.body(doc.sdkJson(), 200, { 'content-type': JSON_CONTENT_TYPE }));
  app.get('/swagger/brec/swagger.yaml', async (c) => c.body(await doc.yaml(), 200, { 'content-type': 'application/yaml; charset=utf-8' }));
}
