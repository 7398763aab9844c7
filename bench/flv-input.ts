// Builds large real FLV inputs for the benchmark: the fixture's GOPs repeated with continuous timestamps.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { FlvParser } from '../src/flv/parser.js';
import { FLV_FILE_HEADER, encodeTag } from '../src/flv/tag-encoding.js';
import { TagFlag, TagType, isHeader } from '../src/flv/tag.js';
import { TagStager } from '../src/flv/writer/tag-stager.js';

const UUID = Buffer.from('6c69766572656320626e6368206770b1', 'hex');

/**
 * A valid SEI NALU (user_data_unregistered) carrying a decimal counter, length-prefixed. Each repeated GOP
 * gets a different one in its keyframe, so the copies are distinct content (otherwise the duplicate-chunk
 * rule would rightly drop them). ASCII digits never form an emulation-prevention sequence.
 */
function seiNalu(counter: number): Buffer {
  const digits = Buffer.from(String(counter).padStart(12, '0'), 'ascii');
  const payload = Buffer.concat([UUID, digits]);
  const nal = Buffer.concat([Buffer.from([0x06, 0x05, payload.length]), payload, Buffer.from([0x80])]);
  const len = Buffer.allocUnsafe(4);
  len.writeUInt32BE(nal.length);
  return Buffer.concat([len, nal]);
}

export interface BuiltInput {
  path: string;
  bytes: number;
  loops: number;
  tags: number;
  durationMs: number;
}

/** Writes `out`, at least `targetBytes` long, from the GOPs of `fixture`. */
export function buildRepeatedFlv(fixture: string, out: string, targetBytes: number): BuiltInput {
  const parser = new FlvParser();
  const { tags } = parser.push(readFileSync(fixture));
  const script = tags.find((t) => t.type === TagType.Script);
  const headers = tags.filter(isHeader);
  const data = tags.filter((t) => (t.type === TagType.Audio || t.type === TagType.Video) && !isHeader(t) && !(t.flag & TagFlag.End));
  const video = data.filter((t) => t.type === TagType.Video);
  const frame = video.length > 1 ? video[video.length - 1]!.timestamp - video[video.length - 2]!.timestamp : 40;
  const loopMs = video[video.length - 1]!.timestamp + frame;
  const fd = openSync(out, 'w');
  const stager = new TagStager(4 << 20);
  let bytes = 0;
  const flush = (): void => {
    const b = Buffer.concat(stager.bytes());
    let done = 0;
    while (done < b.length) done += writeSync(fd, b, done, b.length - done);
    bytes += b.length;
    stager.reset();
  };
  const head = Buffer.concat([FLV_FILE_HEADER, ...(script?.data ? [encodeTag(TagType.Script, 0, script.data)] : []), ...headers.map((h) => encodeTag(h.type, 0, h.data!))]);
  writeSync(fd, head);
  bytes += head.length;
  let loops = 0;
  let count = 0;
  let counter = 0;
  let lastTs = 0;
  while (bytes + stager.length < targetBytes) {
    for (const t of data) {
      let body: Uint8Array = t.data!;
      if (t.flag === TagFlag.Keyframe && t.type === TagType.Video) {
        body = Buffer.concat([t.data!.subarray(0, 5), seiNalu(++counter), t.data!.subarray(5)]);
      }
      if (!stager.fits(body.length)) flush();
      lastTs = t.timestamp + loops * loopMs;
      stager.add(t.type, lastTs, body);
      count++;
    }
    loops++;
  }
  const end = Buffer.from([0x17, 0x02, 0, 0, 0]);
  stager.add(TagType.Video, lastTs, end);
  flush();
  closeSync(fd);
  return { path: out, bytes, loops, tags: count + 1 + headers.length + (script ? 1 : 0), durationMs: lastTs };
}

/** `node dist/bench/flv-input.js <fixture> <out> <MB>`: build one input by hand. */
if (process.argv[1]?.endsWith('flv-input.js') && process.argv.length >= 5) {
  const r = buildRepeatedFlv(process.argv[2]!, process.argv[3]!, Number(process.argv[4]) * 1024 * 1024);
  console.log(JSON.stringify(r));
}

