// Public surface of the web UI's server side.
export { registerUiRoutes, UI_CSP } from './routes.js';
export { findWebDir } from './web-dir.js';
