// Webhook v1 record: brec's legacy payload, sent once per closed file.
import type { RecorderEvent } from '../events/types.js';

export interface WebhookV1Payload {
  EventRandomId: string;
  RoomId: number;
  Name: string;
  Title: string;
  RelativePath: string;
  FileSize: number;
  StartRecordTime: string;
  EndRecordTime: string;
}

/** Null for every event except FileClosed: v1 receivers only ever heard about finished files. */
export function buildV1Payload(event: RecorderEvent, randomId: string): WebhookV1Payload | null {
  if (event.EventType !== 'FileClosed') return null;
  const d = event.EventData;
  return {
    EventRandomId: randomId,
    RoomId: d.RoomId,
    Name: d.Name,
    Title: d.Title,
    RelativePath: d.RelativePath,
    FileSize: d.FileSize,
    StartRecordTime: d.FileOpenTime,
    EndRecordTime: d.FileCloseTime,
  };
}
