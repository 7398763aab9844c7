// One live-stream room recorded over FLV (HLS beside it for the fill), as the outage regression tests set it up: its
// start, its end with the files it closed, its log story and a wait for an event.
import type { FileClosedData } from '../../src/events/types.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import type { collectLogs } from '../hls/helpers.js';

/** The room's log lines with the fields a failure is read by. */
export function roomStory(logs: ReturnType<typeof collectLogs>, roomId: number, fields = ['how', 'gapMs', 'code']): string {
  return logs.lines.filter((l) => l.RoomId === roomId).map((l) => `${l['@t']} ${l['@mt']} ${JSON.stringify(Object.fromEntries(fields.map((f) => [f, l[f]])))}`).join('\n');
}

/** Polls until `ok` holds (the event, not a time); rejects after `timeoutMs` with the story. */
export async function until(what: string, ok: () => boolean, timeoutMs: number, story: () => string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms\n${story()}`);
    await sleep(50);
  }
}

/** The room live and recording over FLV (fMP4 HLS with 60 s retention beside it) for `settleMs` after its first file. */
export async function startFlvRoom(roomId: number, settleMs = 4000): Promise<Harness> {
  const h = await startHarness({
    rooms: [{ roomId, live: true, formats: ['flv', 'fmp4'], liveStream: { hlsRetentionSec: 60 } }],
    roomConfig: { [roomId]: { RecordingProtocol: 'flv' } },
  });
  await h.waitEvent('FileOpening', (e) => roomOf(e) === roomId, 40_000);
  await sleep(settleMs);
  return h;
}

/** Records on for `afterMs`, ends the stream and answers the room's closed files once its session ended. */
export async function endStream(h: Harness, roomId: number, afterMs = 3000): Promise<FileClosedData[]> {
  await sleep(afterMs);
  h.sim.setLive(roomId, false);
  await h.waitEvent('SessionEnded', (e) => roomOf(e) === roomId, 60_000);
  return h.events.filter((e) => e.EventType === 'FileClosed' && roomOf(e) === roomId).map((e) => e.EventData as FileClosedData);
}
