// RecordAvoidHosts: PCDN hosts (default list) are passed over while another host is offered, and kept when they are all there is.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RECORD_AVOID_HOSTS, parseAvoidHosts } from '../../src/bilibili/avoid-hosts.js';
import { streamUrlOf } from '../../src/bilibili/stream-url.js';
import { FIELDS } from '../../src/config/fields.js';
import type { CodecEntry } from '../../src/bilibili/api-models.js';

const entry = (hosts: string[]): CodecEntry => ({
  codecName: 'avc', currentQn: 10000, acceptQn: [10000], baseUrl: '/live-bvc/1/live_1_1.flv?', hdrType: 0, drm: false,
  urlInfo: hosts.map((host) => ({ host, extra: 'expires=1', streamTtl: 3600 })),
} as unknown as CodecEntry);

const PCDN = ['https://xy1x2x3x4xy.mcdn.bilivideo.cn:486', 'https://abc.szbdyd.com:4483', 'https://edge.mountaintoys.cn:8082'];
const CDN = 'https://cn-gotcha01.bilivideo.com';

describe('RecordAvoidHosts', () => {
  it('is a liverec setting (room or global) whose default matches the PCDN host families', () => {
    expect(FIELDS.RecordAvoidHosts).toMatchObject({ kind: 'string', scope: 'RG', default: DEFAULT_RECORD_AVOID_HOSTS });
    const { patterns, bad } = parseAvoidHosts(undefined);
    expect(bad).toEqual([]);
    for (const h of PCDN) expect(patterns.some((p) => p.test(h)), h).toBe(true);
    expect(patterns.some((p) => p.test(CDN))).toBe(false);
  });

  it('picks another host when one is offered, avoided hosts last; keeps an avoided one when it is all there is', () => {
    for (let i = 0; i < 20; i++) {
      const u = streamUrlOf(entry([...PCDN, CDN]), 'avc', 10000, 'flv');
      expect(u.host).toBe(CDN);
      expect(u.urls.slice(1).every((x) => PCDN.some((h) => x.startsWith(h)))).toBe(true);
    }
    expect(PCDN).toContain(streamUrlOf(entry(PCDN), 'avc', 10000, 'flv').host);
  });

  it('takes the user\u2019s list; an empty one avoids nothing; a bad pattern is reported, not thrown', () => {
    const mine = String.raw`gotcha01`;
    for (let i = 0; i < 10; i++) expect(streamUrlOf(entry([CDN, PCDN[0]!]), 'avc', 10000, 'flv', mine).host).toBe(PCDN[0]);
    const seen = new Set<string>();
    for (let i = 0; i < 60; i++) seen.add(streamUrlOf(entry([CDN, PCDN[0]!]), 'avc', 10000, 'flv', '').host);
    expect(seen.size).toBe(2);
    expect(parseAvoidHosts('mcdn ([').bad).toEqual(['([']);
  });
});
