// Public surface of the event stream: the hub and its route.
export { EventHub, type EventHubOptions } from './hub.js';
export { registerEventRoutes } from './route.js';
export { sseFrame, parseEventId } from './sse-frame.js';
