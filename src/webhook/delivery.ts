// One (message, target URL) delivery as held in memory by a lane, and its stable key.
import type { EventType } from '../events/types.js';

export type LaneState = 'ready' | 'in-flight' | 'waiting';

export interface Delivery {
  key: string;
  /** Message id = the EventId (v2) or EventRandomId (v1) in the body. */
  m: string;
  v: 1 | 2;
  t: EventType;
  /** Index of the URL in the message's URL list (a URL listed twice is two deliveries, as in brec). */
  i: number;
  url: string;
  body: string;
  createdAt: number;
  attempts: number;
  dueAt: number;
  state: LaneState;
  lastStatus?: number;
  lastError?: string;
}

export const deliveryKey = (m: string, i: number): string => `${m}#${i}`;
