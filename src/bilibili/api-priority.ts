// Which live-API calls go first when the budget is short: a stream's start before everything a room can do later.

/*
 * Why these five and in this order (issue 48): every second a start waits is a second of the stream's opening that no
 * file holds, while a danmaku token, a batch round or a title refresh loses nothing by coming a few seconds later.
 *   start    play info for a stream's start or reconnect, and the live re-check between reconnects
 *   origin   the look for the streamer's origin while a re-encode is recorded (RecordingPreferOrigin)
 *   danmaku  the danmaku token (getDanmuInfo)
 *   detect   batch status, uid learning, per-room fallback checks, short-id resolution
 *   info     room info and cover refreshes of a room already known
 */
export type ApiPriority = 'start' | 'origin' | 'danmaku' | 'detect' | 'info';

export const API_PRIORITIES: readonly ApiPriority[] = ['start', 'origin', 'danmaku', 'detect', 'info'];

/** 0 is served first. */
export function priorityLevel(p: ApiPriority): number {
  return API_PRIORITIES.indexOf(p);
}
