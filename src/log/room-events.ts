// Info-level room lines from the lifecycle events: stream start/end, recording start, file open/close, session end.
import type { EventBus } from '../events/bus.js';
import type { RecorderEvent } from '../events/types.js';
import { roomLogger } from './logger.js';

/** One line per event, each with roomId (brec logs these at Information; liverec's workers only post anomalies). */
export function logRoomEvent(e: RecorderEvent): void {
  const log = roomLogger(e.EventData.RoomId);
  switch (e.EventType) {
    case 'StreamStarted':
      log.info({ title: e.EventData.Title, name: e.EventData.Name }, 'stream started');
      break;
    case 'StreamEnded':
      log.info('stream ended');
      break;
    case 'SessionStarted':
      log.info({ sessionId: e.EventData.SessionId }, 'recording started');
      break;
    case 'FileOpening':
      log.info({ sessionId: e.EventData.SessionId, path: e.EventData.RelativePath }, `file opened: ${e.EventData.RelativePath}`);
      break;
    case 'FileClosed': {
      const d = e.EventData;
      log.info({ sessionId: d.SessionId, path: d.RelativePath, size: d.FileSize, duration: d.Duration },
        `file closed: ${d.RelativePath} (${d.FileSize} bytes, ${d.Duration.toFixed(1)} s)`);
      break;
    }
    case 'SessionEnded':
      log.info({ sessionId: e.EventData.SessionId }, 'session ended');
      break;
  }
}

export const attachRoomEventLog = (bus: EventBus): (() => void) => bus.on(logRoomEvent);
