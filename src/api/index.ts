// Public surface of the HTTP API for the CLI and benchmarks.
export { startApiServer, type ApiServer, type ApiServerOptions } from './server.js';
export { createApiApp, MAX_BODY_BYTES, type ApiAppOptions } from './app.js';
export { parseBind, DEFAULT_PORT, type BindSpec, type ListenTarget } from './bind.js';
export { ApiErrorCode } from './errors.js';
export { isLocalAddress, isLocalHost, guardVerdict } from './guard.js';
export type { OpenApiDocument } from './openapi.js';
