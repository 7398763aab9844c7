// Public surface of the rooms' recent history: the sampler and its route.
export { RoomHistory, type RoomHistoryOptions, type RoomHistorySeries } from './room-history.js';
export { registerHistoryRoutes } from './route.js';
