// Webhook v2 envelope {EventType, EventTimestamp, EventId, EventData}, fields picked in brec's order.
import { formatLocal } from '../time.js';
import type { FileClosedData, FileOpeningData, PostProcessedData, RecorderEvent, RoomEventSnapshot, SessionData } from '../events/types.js';

export interface WebhookV2Payload {
  EventType: RecorderEvent['EventType'];
  EventTimestamp: string;
  EventId: string;
  EventData: Record<string, unknown>;
}

// Picking fields (instead of spreading EventData) keeps stray in-process fields such as a full path off the
// wire, and mirrors Newtonsoft's order: the derived event's own fields first, then the room snapshot.
function room(d: RoomEventSnapshot): Record<string, unknown> {
  return {
    RoomId: d.RoomId,
    ShortId: d.ShortId ?? 0,
    Name: d.Name,
    Title: d.Title,
    AreaNameParent: d.AreaNameParent,
    AreaNameChild: d.AreaNameChild,
    Recording: d.Recording,
    Streaming: d.Streaming,
    DanmakuConnected: d.DanmakuConnected,
  };
}

function session(d: SessionData): Record<string, unknown> {
  return { SessionId: d.SessionId, ...room(d) };
}

/** Cluster mode only, after brec's fields: the node whose disk holds the file. */
const node = (d: FileOpeningData): Record<string, unknown> => (d.NodeId === undefined ? {} : { NodeId: d.NodeId });

/** liverec extension, last: the file's stream provenance (see src/events/source.ts). */
const source = (d: FileOpeningData): Record<string, unknown> => (d.Source === undefined ? {} : { Source: d.Source });

function fileOpening(d: FileOpeningData): Record<string, unknown> {
  return {
    SessionId: d.SessionId, RelativePath: d.RelativePath, FileOpenTime: d.FileOpenTime, ...room(d), ...node(d), ...source(d),
    ...(d.BackfillMs !== undefined ? { BackfillMs: d.BackfillMs } : {}), // liverec extension (docs/gaps.md)
  };
}

function fileClosed(d: FileClosedData): Record<string, unknown> {
  return {
    SessionId: d.SessionId,
    RelativePath: d.RelativePath,
    FileSize: d.FileSize,
    Duration: d.Duration,
    FileOpenTime: d.FileOpenTime,
    FileCloseTime: d.FileCloseTime,
    ...room(d),
    ...node(d),
    ...source(d),
    // liverec extension, after brec's fields and only when the file lacks media (docs/gaps.md).
    ...(d.Gaps && d.Gaps.length > 0 ? { Gaps: d.Gaps.map((g) => ({ StartMs: g.StartMs, DurationMs: g.DurationMs, Reason: g.Reason })) } : {}),
    // liverec extension, only when someone marked the file while it was recorded (docs/clips.md).
    ...(d.Markers && d.Markers.length > 0 ? { Markers: d.Markers.map((m) => ({ AtMs: m.AtMs, Label: m.Label })) } : {}),
  };
}

/** liverec's PostProcessed: FileClosed's fields, then the outcome of the file's jobs. */
function postProcessed(d: PostProcessedData): Record<string, unknown> {
  return { ...fileClosed(d), Succeeded: d.Succeeded, OutputPath: d.OutputPath, Jobs: d.Jobs };
}

function eventData(event: RecorderEvent): Record<string, unknown> {
  switch (event.EventType) {
    case 'SessionStarted':
    case 'SessionEnded':
      return session(event.EventData);
    case 'FileOpening':
      return fileOpening(event.EventData);
    case 'FileClosed':
      return fileClosed(event.EventData);
    case 'StreamStarted':
    case 'StreamEnded':
      return room(event.EventData);
    case 'PostProcessed':
      return postProcessed(event.EventData);
    case 'FileDeleted': {
      const d = event.EventData;
      return { RelativePath: d.RelativePath, Files: d.Files, FileSize: d.FileSize, Reason: d.Reason, ...room(d) };
    }
  }
}

export function buildV2Payload(event: RecorderEvent, eventId: string): WebhookV2Payload {
  // The emitter stamps events when they are queued; an unstamped one gets the time it reached the outbox.
  return { EventType: event.EventType, EventTimestamp: event.EventTimestamp || formatLocal(), EventId: eventId, EventData: eventData(event) };
}
