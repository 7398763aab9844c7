// Guessed URIs for segments that left the playlist: only when the URI's last number is the sequence number.
import { describe, expect, it } from 'vitest';
import { BACKFILL_MAX, guessMissing } from '../../src/hls/gap-backfill.js';
import type { PlaylistSegment } from '../../src/hls/playlist.js';

const seg = (seq: number, uri: string): PlaylistSegment => ({ seq, uri, duration: 1, title: 'a|b', map: 'h1.m4s', discontinuity: false });
const uris = (lastSeq: number, next: PlaylistSegment): string[] => guessMissing(lastSeq, next).map((s) => s.uri);

describe('guessMissing', () => {
  it('renumbers fMP4 and TS names, keeps padding, paths and queries, and drops the size/CRC title', () => {
    expect(uris(1010, seg(1013, '1013.m4s'))).toEqual(['1011.m4s', '1012.m4s']);
    expect(uris(96, seg(99, 'live_1_2-0099.ts?expires=5'))).toEqual(['live_1_2-0097.ts?expires=5', 'live_1_2-0098.ts?expires=5']);
    expect(uris(5, seg(7, '/live-bvc/9/seg5/7.m4s'))).toEqual(['/live-bvc/9/seg5/6.m4s']);
    expect(guessMissing(10, seg(12, '12.m4s'))[0]).toMatchObject({ seq: 11, title: '', map: 'h1.m4s', discontinuity: false });
  });

  it('guesses nothing when the name does not carry the sequence number, when nothing is missing, or when too much is', () => {
    expect(uris(5, seg(7, 'segment.m4s'))).toEqual([]);
    expect(uris(5, seg(7, '8.m4s'))).toEqual([]);
    expect(uris(6, seg(7, '7.m4s'))).toEqual([]);
    expect(uris(0, seg(BACKFILL_MAX + 2, `${BACKFILL_MAX + 2}.m4s`))).toEqual([]);
    expect(uris(1, seg(BACKFILL_MAX + 2, `${BACKFILL_MAX + 2}.m4s`))).toHaveLength(BACKFILL_MAX);
  });
});
