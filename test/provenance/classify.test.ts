// The provenance classifier against the real captures: stream names, suffix= queries, qn and master-playlist attributes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyMasterPlaylist, classifyStream, streamNameOf } from '../../src/bilibili/provenance.js';

const FIX = 'test/fixtures/bili-real';
const read = (p: string): string => readFileSync(`${FIX}/${p}`, 'utf8');

describe('classifyStream', () => {
  it('reads the variant of every stream URL in the captures', () => {
    const rows = read('urls/extracted_stream_urls.tsv').split('\n').filter((l) => l && !l.startsWith('#') && !l.startsWith('source_file'));
    const seen = new Map<string, string>();
    for (const row of rows) {
      const url = row.split('\t').at(-1)!;
      if (!url.startsWith('http')) continue;
      const p = classifyStream({ url });
      seen.set(p.streamName, p.kind);
    }
    expect(seen.get('live_194484313_8775758_bluray')).toBe('reencode');
    expect(seen.get('live_2071691173_75135004_2500')).toBe('transcode');
    expect(seen.get('live_2071691173_75135004_minihevc')).toBe('transcode');
    expect(seen.get('live_22908869_bs_6578203_2500')).toBe('transcode');
    expect(seen.get('live_11153765_9369560')).toBe('origin');
  });

  it('the biliup _bluray URL: re-encode with its evidence and origin_bitrate', () => {
    const url = read('urls/biliup_hls_fmp4_variant_url_room_uid194484313_2024-07_qn10000_suffix_bluray.txt').trim().split(/\s+/).find((t) => t.startsWith('http'))!;
    const p = classifyStream({ url, codec: 'avc', qn: 10000 });
    expect(p).toMatchObject({ kind: 'reencode', qn: 10000, codec: 'avc', suffix: 'bluray', originBitrate: 1270589 });
    expect(p.evidence).toEqual(expect.arrayContaining(['sid_l suffix _bluray', 'suffix=bluray', 'qn 10000', 'origin_bitrate 1270589']));
  });

  it('an origin: no suffix in the name, suffix=origin, or qn 25000', () => {
    expect(classifyStream({ url: 'https://h/live-bvc/1/live_5_6.flv?qn=10000&suffix=origin' }).kind).toBe('origin');
    expect(classifyStream({ url: 'https://h/live-bvc/1/live_5_6/index.m3u8?qn=25000' }).kind).toBe('origin');
    expect(classifyStream({ url: 'https://h/live-bvc/1/live_5_6.flv?qn=25000', codec: 'hevc' })).toMatchObject({ kind: 'origin', codec: 'hevc', qn: 25000 });
  });

  it('never guesses: unknown suffixes, encrypted names without query, and conflicts are unknown', () => {
    expect(classifyStream({ url: 'https://h/live-bvc/1/live_5_6_prohevc.flv' }).kind).toBe('unknown');
    expect(classifyStream({ url: 'https://h/live-bvc/1/live_b4av85.flv' }).kind).toBe('unknown');
    expect(classifyStream({ url: 'https://h/x/stream.flv' }).kind).toBe('unknown');
    const conflict = classifyStream({ url: 'https://h/live-bvc/1/live_5_6_bluray.flv?suffix=origin' });
    expect(conflict.kind).toBe('unknown');
    expect(conflict.evidence.join(' ')).toMatch(/conflict/);
    expect(classifyStream({ url: 'https://h/live-bvc/1/live_5_6.flv?qn=250' }).kind).toBe('transcode');
  });

  it('the stream name of FLV, TS and fMP4 paths', () => {
    expect(streamNameOf('https://h/live-bvc/1/live_1_2_bluray.flv?x=1')).toBe('live_1_2_bluray');
    expect(streamNameOf('https://h/live-bvc/1/live_1_2_bluray/index.m3u8')).toBe('live_1_2_bluray');
    expect(streamNameOf('https://h/live-bvc/1/live_1_2.m3u8')).toBe('live_1_2');
  });
});

describe('classifyMasterPlaylist', () => {
  it('the play-gateway master playlist: 250/400 transcodes and the 原画 _bluray re-encode', () => {
    const variants = classifyMasterPlaylist(read('hls/qydysky_master_playlist_room_play-gateway_2025-01_avc_250_400_10000_content_steering.m3u8'));
    expect(variants).toHaveLength(12);
    const byQn = new Map(variants.map((v) => [v.qn, v]));
    expect(byQn.get(250)).toMatchObject({ kind: 'transcode', codec: 'avc', bitrate: 1187465, originBitrate: 1272698 });
    expect(byQn.get(400)).toMatchObject({ kind: 'transcode', suffix: '4000' });
    const bluray = byQn.get(10000)!;
    expect(bluray).toMatchObject({ kind: 'reencode', codec: 'avc', bitrate: 2108696 });
    expect(bluray.evidence).toEqual(expect.arrayContaining(['BILI-QN=10000', 'BILI-DISPLAY=原画', 'CODECS=avc1.640032,mp4a.40.2']));
  });

  it('the getRoomPlayInfo capture: avc _2500 and hevc _minihevc transcodes', () => {
    const json = JSON.parse(read('api/rustsrec_getRoomPlayInfo_room22908869_2025-07_flv_ts_fmp4_avc_hevc_minihevc.json'));
    const kinds = new Set<string>();
    for (const s of json.data.playurl_info.playurl.stream) for (const f of s.format) for (const c of f.codec) {
      for (const u of c.url_info) kinds.add(`${c.codec_name}:${classifyStream({ url: u.host + c.base_url + u.extra, codec: c.codec_name, qn: c.current_qn }).kind}`);
    }
    expect([...kinds].sort()).toEqual(['avc:transcode', 'hevc:transcode']);
  });
});

describe('the danmaku commands that announce a changed offer', () => {
  it('PLAYURL_RELOAD (a reconnect, which resolves origin-first again) and master_qn_strategy_chg (an origin hint) parse from the real captures', async () => {
    const { parseCommand } = await import('../../src/bilibili/danmaku/commands.js');
    expect(parseCommand(JSON.parse(read('danmaku/bac_cmd_PLAYURL_RELOAD.json')))).toMatchObject({ type: 'PLAYURL_RELOAD' });
    expect(parseCommand(JSON.parse(read('danmaku/bac_cmd_master_qn_strategy_chg.json')))).toMatchObject({ type: 'PLAYURL_CHANGE', cmd: 'master_qn_strategy_chg' });
  });
});

describe('originIn: which offered stream RecordingPreferOrigin takes', () => {
  const entry = (name: string, suffix: string) => ({
    codecName: '', currentQn: 10000, acceptQn: [10000], baseUrl: `/live-bvc/1/${name}.flv?`,
    urlInfo: [{ host: 'https://cn-x.bilivideo.com', extra: `qn=10000&suffix=${suffix}`, streamTtl: 0 }],
    drm: false, drmKeySystems: null, videoCodecs: '', hdrType: 0,
  });
  it('passes a known re-encode over for an origin in the other codec, but never an unknown stream', async () => {
    const { originIn } = await import('../../src/bilibili/origin-offer.js');
    const { qualityTokens } = await import('../../src/bilibili/quality.js');
    const tokens = qualityTokens('avc10000,hevc10000');
    const hevcOrigin = new Map([['avc', entry('live_1_2_bluray', 'bluray')], ['hevc', entry('live_1_2', 'origin')]] as const);
    expect(originIn(hevcOrigin, 'flv', tokens)?.url.codec).toBe('hevc');
    const unknownFirst = new Map([['avc', entry('live_1_2_prohevc', 'prohevc')], ['hevc', entry('live_1_2', 'origin')]] as const);
    expect(originIn(unknownFirst, 'flv', tokens)).toBeNull();
    // A codec the tokens do not ask for at 原画 is not taken.
    expect(originIn(hevcOrigin, 'flv', qualityTokens('avc10000'))).toBeNull();
  });
});
