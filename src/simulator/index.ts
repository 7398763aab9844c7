// Public surface of the live-service simulator.
export { Simulator, type RunningSimulator, type SimulatorOptions, type StartOptions } from './simulator.js';
export { SimRoom, type SimRoomInit, type RoomCounters } from './room.js';
export { SimError, type FaultResult } from './room-ops.js';
export { FaultSchema, type Fault, type FaultKind } from './faults.js';
export { danmuCommand, giftCommand, guardCommand, superChatCommand } from './danmaku-messages.js';
