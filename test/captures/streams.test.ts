// Every getRoomPlayInfo / playUrl capture, the HLS captures (master and media playlists, init and media segment) and the
// stream URL captures, read by liverec's own parsers: the values it takes from each.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readPlayInfo } from '../../src/bilibili/api-models.js';
import { chooseFromMaster, variantCodec } from '../../src/bilibili/master-stream.js';
import { chooseQuality, parseQualityTokens, qualityTokens } from '../../src/bilibili/quality.js';
import { codecEntries, selectFormat } from '../../src/bilibili/stream-url.js';
import { crc32 } from '../../src/hls/crc32.js';
import { boxes, child, parseInit, parseMoof } from '../../src/hls/mp4-boxes.js';
import { parsePlaylist } from '../../src/hls/playlist.js';
import { readSamples } from '../../src/media/fmp4-fragments.js';
import { captureBytes, captureFiles, captureJson, captureText } from './read-capture.js';

const json = (folder: string, file: string): unknown => captureJson(folder, file)[0];
/** The `data` of an envelope, as the API client hands it to the readers. */
const data = (folder: string, file: string): never => (json(folder, file) as { data: never }).data;

/** Each getRoomPlayInfo capture: protocol/format/codec entries, codec fields, and the stream the default quality picks. */
const PLAY_INFO: Record<string, { room: number; live: number; entries?: string[]; special?: number[]; pick?: [string, string, number] }> = {
  'bac_getRoomPlayInfo_room3_23058_2023-01_flv_ts_fmp4.json': {
    room: 23058, live: 1, special: [], entries: ['http_stream/flv/avc', 'http_hls/ts/avc', 'http_hls/fmp4/avc'], pick: ['flv', 'avc', 10000],
  },
  'rustsrec_getRoomPlayInfo_room22908869_2025-07_flv_ts_fmp4_avc_hevc_minihevc.json': {
    room: 22908869, live: 1, special: [19],
    entries: ['http_stream/flv/avc', 'http_stream/flv/hevc', 'http_hls/ts/avc', 'http_hls/ts/hevc', 'http_hls/fmp4/avc', 'http_hls/fmp4/hevc'],
    pick: ['flv', 'avc', 10000],
  },
  'rustsrec_getRoomPlayInfo_offline_room6_playurl_info_null.json': { room: 6, live: 0 },
};

describe('captured getRoomPlayInfo answers', () => {
  const files = captureFiles('api').filter((f) => f.includes('getRoomPlayInfo'));

  it('names every capture in this test', () => {
    expect(files.sort()).toEqual(Object.keys(PLAY_INFO).sort());
  });

  for (const file of files) {
    it(file, () => {
      const want = PLAY_INFO[file]!;
      const play = readPlayInfo(data('api', file));
      expect(play.roomId).toBe(want.room);
      expect(play.liveStatus).toBe(want.live);
      if (!want.entries) {
        expect(play.streams).toBeNull();
        expect(() => codecEntries(play, 'flv')).toThrow(expect.objectContaining({ code: 'PLAYURL_NULL' }));
        return;
      }
      expect(play.specialTypes).toEqual(want.special);
      const listed = play.streams!.flatMap((s) => s.formats.flatMap((f) => f.codecs.map((c) => `${s.protocolName}/${f.formatName}/${c.codecName}`)));
      expect(listed).toEqual(want.entries);
      for (const c of play.streams!.flatMap((s) => s.formats.flatMap((f) => f.codecs))) {
        expect(c.drm).toBe(false);
        expect(c.urlInfo.length).toBeGreaterThan(0);
        expect(c.acceptQn).toContain(10000);
        // Opaque or not, the stream name is only ever used as part of base_url.
        expect(c.baseUrl).toMatch(/^\/live-bvc\/\d+\/live_[^/]+(\.flv|\.m3u8|\/index\.m3u8)\?$/);
      }
      const { format, entries } = selectFormat(play, ['flv', 'fmp4', 'ts']);
      const choice = chooseQuality(new Map([...entries].map(([k, e]) => [k, e.acceptQn])), qualityTokens(null));
      expect([format, choice.codec, choice.qn]).toEqual(want.pick);
      // The true original (25000) is asked for where 10000 is offered, though accept_qn never lists it.
      expect(chooseQuality(new Map([...entries].map(([k, e]) => [k, e.acceptQn])), parseQualityTokens('avc25000,hevc25000,avc10000'))).toEqual({ codec: 'avc', qn: 25000 });
      const fmp4 = play.streams!.find((s) => s.protocolName === 'http_hls')!.formats.find((f) => f.formatName === 'fmp4')!;
      expect(fmp4.masterUrl).toBe(file.startsWith('rustsrec') ? 'https://api.live.bilibili.com/xlive/play-gateway/master/url?cid=22908869&mid=0&pt=html5&p2p_type=-1&net=0&free_type=0&build=0&feature=2&qn=0' : '');
    });
  }

  it('the 2025 capture: anonymous current_qn 250 while accept_qn lists 10000, hdr_type 0, minihevc names', () => {
    const play = readPlayInfo(data('api', 'rustsrec_getRoomPlayInfo_room22908869_2025-07_flv_ts_fmp4_avc_hevc_minihevc.json'));
    const hevc = codecEntries(play, 'flv').get('hevc')!;
    expect([hevc.currentQn, hevc.acceptQn, hevc.hdrType, hevc.urlInfo.map((u) => u.host)]).toEqual([
      250, [10000, 400, 250], 0, ['https://d1--ov-gotcha07.bilivideo.com', 'https://d1--ov-gotcha07b.bilivideo.com'],
    ]);
    expect(hevc.baseUrl).toBe('/live-bvc/267004/live_2071691173_75135004_minihevc.flv?');
  });

  it('a drm: true entry is never picked; av1 (codec 2) entries are read and chosen by the av1 token', () => {
    const raw = json('api', 'rustsrec_getRoomPlayInfo_room22908869_2025-07_flv_ts_fmp4_avc_hevc_minihevc.json') as { data: { playurl_info: { playurl: { stream: { format: { codec: Record<string, unknown>[] }[] }[] } } } };
    const flv = raw.data.playurl_info.playurl.stream[0]!.format[0]!;
    flv.codec[0]!.drm = true;
    flv.codec[0]!.drm_key_systems = ['com.widevine.alpha'];
    flv.codec.push({ ...flv.codec[1]!, codec_name: 'av1', base_url: '/live-bvc/1/live_b4av85_2500.flv?', video_codecs: { base: 'av01.0.08M.08' } });
    const play = readPlayInfo(raw.data as never);
    const entries = codecEntries(play, 'flv');
    expect([...entries.keys()]).toEqual(['hevc', 'av1']);
    expect(entries.get('av1')!.videoCodecs).toBe('av01.0.08M.08');
    expect(chooseQuality(new Map([...entries].map(([k, e]) => [k, e.acceptQn])), qualityTokens('av110000,avc10000'))).toEqual({ codec: 'av1', qn: 10000 });
    const drm = play.streams![0]!.formats[0]!.codecs[0]!;
    expect([drm.drm, drm.drmKeySystems]).toEqual([true, ['com.widevine.alpha']]);
  });

  it('the legacy v1 playUrl answer (durl) is not play info: a clear coded error', () => {
    const legacy = json('api', 'bac_room_v1_Room_playUrl_room14073662_2020-10_legacy.json') as { data: { durl: { url: string }[]; current_qn: number } };
    expect(legacy.data.durl.map((d) => new URL(d.url).host)).toEqual(['d1--cn-gotcha04.bilivideo.com', 'd1--cn-gotcha01.bilivideo.com', 'd1--cn-gotcha04.bilivideo.com', 'd1--cn-gotcha04.bilivideo.com']);
    expect(() => readPlayInfo(legacy.data as never)).toThrow(expect.objectContaining({ code: 'API_BAD_RESPONSE' }));
  });
});

describe('captured HLS', () => {
  it('names every HLS capture in this test', () => {
    expect(captureFiles('hls')).toEqual([
      'qydysky_master_playlist_room_play-gateway_2025-01_avc_250_400_10000_content_steering.m3u8',
      'shadowreplay_fmp4_init_segment_avc_aac_2025-09.m4s',
      'shadowreplay_fmp4_media_segment_seq826_avc_aac_2025-09.m4s',
      'shadowreplay_media_playlist_fmp4_EXT-BILI-AUX_2025-09.m3u8',
    ]);
  });

  it('master playlist: BILI-QN / CODECS / BILI-DISPLAY variants, content steering; the 原画 variant on every pathway in priority order', () => {
    const p = parsePlaylist(captureText('hls', 'qydysky_master_playlist_room_play-gateway_2025-01_avc_250_400_10000_content_steering.m3u8'));
    if (p.kind !== 'master') throw new Error('master expected');
    expect(p.variants.length).toBe(12);
    expect([...new Set(p.variants.map((v) => `${v.qn} ${v.display} ${v.codecs} ${v.resolution}`))]).toEqual([
      '250 超清 avc1.640028,mp4a.40.2 1280x720', '400 蓝光 avc1.640032,mp4a.40.2 1920x1080', '10000 原画 avc1.640032,mp4a.40.2 1920x1080',
    ]);
    expect(p.variants.every((v) => variantCodec(v.codecs) === 'avc' && v.uri.startsWith(v.pathway + '/'))).toBe(true);
    expect(p.steering!.pathwayId).toBe('https://d1--cn-gotcha209.bilivideo.com');
    expect(p.steering!.priority.length).toBe(8);
    const pick = chooseFromMaster(p, qualityTokens(null), 1);
    expect([pick.format, pick.codec, pick.qn, pick.currentQn]).toEqual(['fmp4', 'avc', 10000, 10000]);
    expect(pick.urls.map((u) => new URL(u).host)).toEqual(['d1--cn-gotcha209.bilivideo.com', 'd1--cn-gotcha208.bilivideo.com', 'cn-hnzz-cm-01-09.bilivideo.com', 'd1--cn-gotcha204-4.bilivideo.com']);
    expect(pick.urls.every((u) => new URL(u).pathname === '/live-bvc/192693/live_194484313_8775758_bluray/index.m3u8')).toBe(true);
    // 25000 is not listed: it is served by the 10000 variants.
    expect(chooseFromMaster(p, parseQualityTokens('avc25000'), 1).currentQn).toBe(10000);
    expect(chooseFromMaster(p, parseQualityTokens('hevc10000,avc400'), 1).urls.every((u) => u.includes('_4000/'))).toBe(true);
  });

  it('media playlist: epoch-scale sequence, TARGETDURATION 1, h<unix>.m4s init, EXT-BILI-AUX fields', () => {
    const p = parsePlaylist(captureText('hls', 'shadowreplay_media_playlist_fmp4_EXT-BILI-AUX_2025-09.m3u8'));
    if (p.kind !== 'media') throw new Error('media expected');
    expect([p.mediaSequence, p.targetDuration, p.anomalies, p.segments.length]).toEqual([323066244, 1, 0, 11]);
    expect(p.segments.every((s) => s.map === 'h1758715459.m4s' && /^\d+\.m4s$/.test(s.uri))).toBe(true);
    expect(p.segments[0]!.aux).toEqual({ ptsMs: 0x97d350, keyframe: true, size: 0x7d1e3, crc32: 0xfe1425ab });
    expect(p.segments.map((s) => (s.aux!.keyframe ? 'K' : 'N')).join('')).toBe('KNNNNKNNNNK');
    expect(p.segments.map((s) => s.duration)).toEqual([1, 1, 1, 1, 0.17, 1, 1, 1, 1, 0.17, 1]);
    // Every segment's first-frame PTS follows the previous one by about its duration.
    for (let i = 1; i < p.segments.length; i++) {
      const step = p.segments[i]!.aux!.ptsMs - p.segments[i - 1]!.aux!.ptsMs;
      expect(Math.abs(step - p.segments[i - 1]!.duration * 1000)).toBeLessThan(60);
    }
    // An AUX line that disagrees with the EXTINF title, and a malformed one, are anomalies.
    const bad = parsePlaylist('#EXTM3U\n#EXT-BILI-AUX:1|K|10|ff\n#EXTINF:1.00,11|ff\n1.m4s\n#EXT-BILI-AUX:zz\n#EXTINF:1.00,\n2.m4s\n');
    expect(bad.kind === 'media' && bad.anomalies).toBe(2);
  });

  it('init segment: avc1 1920x1080 + mp4a, read by liverec and by mp4box', () => {
    const init = captureBytes('hls', 'shadowreplay_fmp4_init_segment_avc_aac_2025-09.m4s');
    const info = parseInit(init)!;
    expect(info.tracks.map((t) => `${t.handler}:${t.codec}:${t.width}x${t.height}`)).toEqual(['vide:avc1:1920x1080', 'soun:mp4a:0x0']);
    const MP4Box = createRequire(import.meta.url)('mp4box') as { createFile(): { onReady?: (i: { tracks: { codec: string }[] }) => void; appendBuffer(b: ArrayBuffer & { fileStart?: number }): void; flush(): void } };
    const file = MP4Box.createFile();
    let codecs: string[] = [];
    file.onReady = (i) => { codecs = i.tracks.map((t) => t.codec); };
    const ab = init.buffer.slice(init.byteOffset, init.byteOffset + init.length) as ArrayBuffer & { fileStart?: number };
    ab.fileStart = 0;
    file.appendBuffer(ab);
    file.flush();
    expect(codecs[0]).toMatch(/^avc1\.64002a$/i);
    expect(codecs[1]).toBe('mp4a.40.2');
  });

  it('media segment: four moof+mdat pairs, no styp; decode times per track; samples inside their mdat', () => {
    const init = parseInit(captureBytes('hls', 'shadowreplay_fmp4_init_segment_avc_aac_2025-09.m4s'))!;
    const seg = captureBytes('hls', 'shadowreplay_fmp4_media_segment_seq826_avc_aac_2025-09.m4s');
    const top = boxes(seg);
    expect(top.map((b) => b.type)).toEqual(['moof', 'mdat', 'moof', 'mdat', 'moof', 'mdat', 'moof', 'mdat']);
    const moofs = top.filter((b) => b.type === 'moof');
    expect(seg.readUInt32BE(child(seg, moofs[0]!, 'mfhd')!.body + 4)).toBe(826);
    const runs = moofs.map((m) => parseMoof(seg, m, init));
    expect(runs[0]!.map((r) => r.trackId).sort()).toEqual(init.tracks.map((t) => t.trackId).sort());
    expect(runs[0]![0]!.baseDecodeTime).toBe(9888240);
    const samples = readSamples(seg, init);
    expect(samples.every((s) => s.data.byteOffset >= seg.byteOffset && s.data.length > 0)).toBe(true);
    expect(samples.reduce((n, s) => n + s.data.length, 0)).toBe(runs.flat().reduce((n, r) => n + r.bytes, 0));
    expect(crc32(seg)).toBeTypeOf('number');
  });
});

describe('captured stream URLs', () => {
  it('names every URL capture in this test', () => {
    expect(captureFiles('urls')).toEqual(['biliup_hls_fmp4_variant_url_room_uid194484313_2024-07_qn10000_suffix_bluray.txt', 'extracted_stream_urls.tsv']);
  });

  it('the biliup variant URL: host, fMP4 path, qn and suffix', () => {
    const u = new URL(captureText('urls', 'biliup_hls_fmp4_variant_url_room_uid194484313_2024-07_qn10000_suffix_bluray.txt').trim());
    expect([u.host, u.pathname, u.searchParams.get('qn'), u.searchParams.get('suffix')]).toEqual([
      'cn-gdgz-cm-01-14.bilivideo.com', '/live-bvc/819976/live_194484313_8775758/index.m3u8', '10000', 'bluray',
    ]);
  });

  it('every URL in extracted_stream_urls.tsv parses to the host, path, stream name and qn of its row', () => {
    const [header, ...rows] = captureText('urls', 'extracted_stream_urls.tsv').split('\n').filter((l) => l !== '' && !l.startsWith('#')).map((l) => l.split('\t'));
    const col = (name: string): number => header!.indexOf(name);
    expect(rows.length).toBeGreaterThan(30);
    for (const r of rows) {
      const u = new URL(r[col('full_url')]!);
      expect(u.host).toBe(r[col('host')]);
      expect(u.pathname).toBe(r[col('path')]);
      expect(u.pathname).toContain(r[col('stream_name')]!);
      if (r[col('qn')] !== '') expect(u.searchParams.get('qn')).toBe(r[col('qn')]);
    }
  });
});
