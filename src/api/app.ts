// Composes the API: guard → cross-origin policy → auth → body limit → routes, brec's routing quirks, the document and fallbacks.
import { OpenAPIHono } from '@hono/zod-openapi';
import { getPath as honoGetPath } from 'hono/utils/url';
import { basicAuth } from './auth.js';
import { bodyLimit } from './body-limit.js';
import { registerConfigRoutes } from './config.js';
import type { ApiApp, ApiDeps, ApiEnv } from './context.js';
import { cors } from './cors.js';
import { describeZodError } from './errors.js';
import { installFallbacks } from './fallback.js';
import { registerFileDownloads } from './file-download.js';
import { registerFileRoutes } from './file.js';
import { registerGraphqlRoutes } from './graphql/route.js';
import { openAccessGuard } from './guard.js';
import { jsonResponse } from './json.js';
import { registerLogRoutes } from './log.js';
import { registerMiscRoutes } from './misc.js';
import { openApiDocument, registerOpenApiRoutes, type OpenApiDocument } from './openapi.js';
import { registerRoomRoutes } from './room.js';
import type { RoomSnapshots } from './room-snapshot.js';
import { registerSwaggerRoutes } from './swagger.js';
import { registerVersionRoutes } from './version.js';
import { registerWebhookRoutes } from './webhook.js';
import { registerSourceSchema } from './source-schema.js';
import { registerWebhookActionRoutes } from './webhook-actions.js';
import { registerJobRoutes } from './jobs.js';
import { registerClipRoutes } from './clips.js';
import { registerClipSuggestionRoutes } from './clip-suggestions.js';
import { registerDanmakuDensityRoutes } from './danmaku-density.js';
import { registerMarkerRoutes } from './markers.js';
import { registerLivePreviewRoutes } from './live-preview.js';
import { PreviewHub } from '../preview/preview-hub.js';
import { logger } from '../log/logger.js';
import { registerRetentionRoutes } from './retention.js';
import { registerNotifyRoutes } from './notify.js';
import { registerAccountRoutes } from './accounts.js';
import { EventHub, registerEventRoutes } from './events/index.js';
import { registerGapSchemas } from './gap-schemas.js';
import { RecorderMetrics, registerMetricsRoutes } from './metrics/index.js';
import { registerUiRoutes } from './ui/index.js';
import { RoomHistory, registerHistoryRoutes } from './history/index.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface ApiAppOptions extends ApiDeps {
  /** Basic auth credentials; null = no auth (a missing half is the empty string, as in brec). */
  auth: { user: string; pass: string } | null;
  /** Turns the open-access guard off (it is also off whenever auth is set). */
  openAccess: boolean;
  /** Origins trusted besides the API's own (`--http-cors-origin`, normalised); `*` = any. */
  corsOrigins?: readonly string[];
}

const TARGETS: Record<string, string> = { json: 'body', query: 'query', param: 'path', header: 'header' };

/** brec's routing is case-insensitive and tolerates a trailing slash under /api; elsewhere paths stay exact. */
function getPath(request: Request): string {
  const path = honoGetPath(request);
  if (!/^\/api(\/|$)/i.test(path)) return path;
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.replace(/\/+$/, '') || '/' : lower;
}

export interface ApiAppParts {
  app: ApiApp;
  document: OpenApiDocument;
  /** The event stream's hub (GET /api/events). */
  events: EventHub;
  metrics: RecorderMetrics;
  /** The rooms' last hour of bitrate, pace and bytes (GET /api/history). */
  history: RoomHistory;
  /** The cached room answers (GET /api/room, /api/room/{id}), shared with the raw fast path (fast-room-get.ts). */
  snapshots: RoomSnapshots;
  /** Stops the event stream's and the metrics' timers and closes every event-stream client. */
  dispose(): void;
}

export function createApiApp(options: ApiAppOptions): ApiAppParts {
  const app: ApiApp = new OpenAPIHono<ApiEnv>({
    getPath,
    defaultHook: (result) => {
      if (!result.success) return jsonResponse(describeZodError(result.error, TARGETS[result.target] ?? result.target), 400);
      return undefined;
    },
  });

  if (!options.auth && !options.openAccess) app.use('*', openAccessGuard());
  app.use('*', cors({ auth: options.auth !== null, origins: options.corsOrigins ?? [] }));
  if (options.auth) app.use('*', basicAuth(options.auth.user, options.auth.pass));
  app.use('*', bodyLimit(MAX_BODY_BYTES));

  options.cluster?.register(app, options);
  const snapshots = registerRoomRoutes(app, options);
  registerConfigRoutes(app, options);
  registerFileRoutes(app, options);
  registerLogRoutes(app);
  registerMiscRoutes(app);
  registerVersionRoutes(app);
  registerWebhookRoutes(app, options);
  registerSourceSchema(app);
  registerWebhookActionRoutes(app, options);
  registerJobRoutes(app, options);
  registerClipSuggestionRoutes(app, options);
  registerClipRoutes(app, options);
  registerDanmakuDensityRoutes(app, options);
  registerMarkerRoutes(app, options);
  registerRetentionRoutes(app, options);
  registerNotifyRoutes(app, options);
  registerAccountRoutes(app, options);
  registerGraphqlRoutes(app, options);
  registerFileDownloads(app, options);
  const events = new EventHub(options.recorder);
  registerEventRoutes(app, events);
  // The live preview reads the rooms' threads only while someone watches (src/preview/).
  const preview = new PreviewHub({
    control: (roomId, on) => options.recorder.preview(roomId, on),
    maxViewers: () => options.recorder.config.effective('PreviewMaxViewers'),
    onDanmaku: (d) => events.danmaku(d),
    log: logger().child({ component: 'preview' }),
  });
  options.recorder.previewSink = (roomId, chunk) => preview.receive(roomId, chunk);
  registerLivePreviewRoutes(app, options, preview);
  registerGapSchemas(app);
  const metrics = new RecorderMetrics({ recorder: options.recorder, deliveries: options.deliveries, eventClients: () => events.clientCount });
  registerMetricsRoutes(app, metrics);
  const history = new RoomHistory(options.recorder);
  registerHistoryRoutes(app, history);
  registerUiRoutes(app);
  const document = openApiDocument(app);
  registerOpenApiRoutes(app, document);
  registerSwaggerRoutes(app);
  installFallbacks(app);
  return { app, document, events, metrics, history, snapshots, dispose: () => (events.dispose(), metrics.dispose(), history.dispose(), preview.close()) };
}
