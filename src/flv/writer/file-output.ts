// Real FLV files: lazy open, streamed tag writes, onMetaData (duration, size, frame rate, keyframes) kept current in place.
import * as nodeFs from 'node:fs';
import { metadataCodecId, videoHeaderInfo } from '../codecs/video-header.js';
import { type HevcOutputForm, type VideoCodec, legacyToEnhanced, legacyToEnhancedHead, videoCodecOf } from '../codecs/video-format.js';
import { FlvError } from '../errors.js';
import { VERSION } from '../../version.js';
import type { AmfMap } from '../metadata.js';
import { type NaluSummary, naluSummary } from '../nalu.js';
import { FLV_FILE_HEADER, encodeTag, encodeTagBody } from '../tag-encoding.js';
import { type FlvTag, TagType, isKeyframeData } from '../tag.js';
import { DEFAULT_KEYFRAME_CAPACITY, KEYFRAMES_PLACEHOLDER, MetadataLayout } from './metadata-layout.js';
import type { FileClosedInfo, FlvOutput, PlainGroupWrite } from './output.js';
import { writePartsAt } from './gathered-write.js';
import { TagStager } from './tag-stager.js';
import { TextLog } from './text-log.js';

const EMPTY = new Uint8Array(0);
const summary: NaluSummary = { ok: false, bodySize: 0, filler: false, tiles: false };

/** The synchronous file calls the output uses; node:fs by default (tests may pass an in-memory one). */
export interface FlvFileSystem {
  openSync(path: string, flags: string): number;
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  /** A gathered write; without it, the parts are written one writeSync at a time. */
  writevSync?(fd: number, buffers: readonly Uint8Array[], position: number): number;
  ftruncateSync(fd: number, len: number): void;
  closeSync(fd: number): void;
}

/** What the path callback learns about the file it names. */
export interface NextFileInfo {
  /** 1-based number of the file within this output. */
  index: number;
  /** The session's onMetaData (read-only). */
  metadata: AmfMap;
}

export interface FlvFileOutputOptions {
  /** Names the next file; called lazily, when data arrives and no file is open. */
  nextPath: (info: NextFileInfo) => string;
  /** Adds fields to a new file's onMetaData before its first write (keys are appended after `keyframes`). */
  beforeScriptWrite?: (metadata: AmfMap, info: { path: string; index: number }) => void;
  /** `codec`: the video codec of the file's sequence header, null without one. */
  onFileOpened?: (info: { path: string; index: number; codec: VideoCodec | null }) => void;
  onFileClosed?: (info: FileClosedInfo) => void;
  /** Keyframe index entries reserved in onMetaData (default 6300, as brec). */
  keyframeCapacity?: number;
  /** `'w'` replaces an existing file (default); `'wx'` refuses to (OUTPUT_IO). */
  openFlags?: 'w' | 'wx';
  /** Second line of each accompanying text log (default `liverec <version>`). */
  textLogTitle?: string;
  /** File calls (default node:fs). The text log always uses node:fs. */
  fs?: FlvFileSystem;
  /**
   * Offline mode (`tool fix`): write in ~1 MiB batches across groups and update onMetaData only when the
   * file closes. Faster, but a killed process loses the batch and the index; recordings keep the default.
   */
  offline?: boolean;
  /** HEVC as Enhanced FLV (`hvc1`, default: what ffmpeg ≥ 6.1 and current players read) or codec id 12 as received. */
  hevcForm?: HevcOutputForm;
}

/**
 * Largest single write of a plain group: on ext4 here, 3 MiB writes cost the kernel 2-4× as much per byte as
 * 1 MiB ones (the TagStager keeps to the same size), and a whole GOP in one call measured the same.
 */
const WRITE_BATCH = 1 << 20;

/** Media time between in-place rewrites of duration/filesize/framerate, and of the keyframe index. */
const NUMBERS_EVERY_MS = 2000;
const INDEX_EVERY_MS = 5000;
/** An index entry is added for a GOP that starts more than this long after the previous entry. */
const KEYFRAME_SPACING_MS = 1900;

interface OpenFile {
  fd: number;
  path: string;
  index: number;
  /** Bytes known to be on disk as whole tags. */
  size: number;
  /** A write failed part-way: bytes past `size` may hold part of a tag. */
  torn: boolean;
  layout: MetadataLayout;
  lastTs: number;
  videoFrames: number;
  firstVideoTs: number;
  lastVideoTs: number;
  numbersAt: number;
  indexAt: number;
  log: TextLog;
}

let threadStager: TagStager | null = null;

/**
 * Live outputs empty their stager before every return (each group is flushed), so all outputs of a thread can
 * share one: a 1080p GOP fills the 1 MiB stager, which per room was about 1 MB of RSS.
 */
function sharedStager(): TagStager {
  threadStager ??= new TagStager();
  return threadStager;
}

/**
 * Writes FLV files with synchronous, positioned writes (meant for a worker thread). Invariants that make
 * a killed process leave a playable file: tags are appended whole, in order; metadata is patched in place
 * only after the data it describes is written and never changes length; the index never points past
 * written data. On any write error the output fails (OUTPUT_IO); `close()` then truncates the file to its
 * last whole tag.
 */
export class FlvFileOutput implements FlvOutput {
  bytesWritten = 0;
  readonly tagCounts: number[] = [];
  private file: OpenFile | null = null;
  private count = 0;
  private readonly stager: TagStager;
  private pendingLogs: { message: string; duration: number }[] = [];
  private readonly fs: FlvFileSystem;

  constructor(private readonly options: FlvFileOutputOptions) {
    this.fs = options.fs ?? nodeFs;
    this.stager = options.offline ? new TagStager() : sharedStager();
  }

  get isOpen(): boolean {
    return this.file !== null;
  }

  /** Path of the open file, or null. */
  get currentPath(): string | null {
    return this.file?.path ?? null;
  }

  open(metadata: AmfMap, videoHeader: FlvTag | null, audioHeader: FlvTag | null): void {
    this.close();
    const index = ++this.count;
    const path = this.options.nextPath({ index, metadata });
    const map = this.buildMetadata(metadata, videoHeader);
    this.options.beforeScriptWrite?.(map, { path, index });
    const layout = new MetadataLayout(map, this.options.keyframeCapacity ?? DEFAULT_KEYFRAME_CAPACITY);
    let fd: number;
    try {
      fd = this.fs.openSync(path, this.options.openFlags ?? 'w');
    } catch (err) {
      throw new FlvError('OUTPUT_IO', `Cannot create ${path}: ${(err as Error).message}`, { cause: err });
    }
    const log = new TextLog(path, this.options.textLogTitle ?? `liverec ${VERSION}`);
    this.file = { fd, path, index, size: 0, torn: false, layout, lastTs: 0, videoFrames: 0, firstVideoTs: 0, lastVideoTs: 0, numbersAt: 0, indexAt: 0, log };
    const parts: Uint8Array[] = [FLV_FILE_HEADER, encodeTag(TagType.Script, 0, layout.body)];
    if (videoHeader?.data) parts.push(encodeTag(TagType.Video, 0, this.videoBody(videoHeader.data)));
    if (audioHeader?.data) parts.push(encodeTag(TagType.Audio, 0, audioHeader.data));
    this.tagCounts.push(parts.length - 1);
    this.append(Buffer.concat(parts));
    this.options.onFileOpened?.({ path, index, codec: videoCodecOf(videoHeader?.data ?? null) });
    for (const l of this.pendingLogs) log.write(l.message, l.duration, this.file.size);
    this.pendingLogs = [];
  }

  writeData(tags: readonly FlvTag[]): void {
    const f = this.requireFile();
    const start = f.size + this.stager.length;
    try {
      for (const t of tags) {
        // Rebuilt from the NALU list only when that changes the bytes (filler removed, stray trailing bytes).
        const n = t.type === TagType.Video ? naluSummary(t, summary) : null;
        const body = n && n.ok && !n.tiles ? encodeTagBody(t) : (t.data ?? EMPTY);
        this.stageTag(t.type, t.timestamp, body);
        if (t.type === TagType.Video) {
          if (f.videoFrames++ === 0) f.firstVideoTs = t.timestamp;
          f.lastVideoTs = t.timestamp;
        }
      }
      // Live outputs write every group at once; offline ones batch groups, but never past the bodies they
      // reference (the caller reuses that memory once the group is handed over).
      if (!this.options.offline || this.stager.referenced > 0) this.flushStage();
    } catch (err) {
      // A shared stager must never carry this file's tags into another file, nor keep references.
      if (!this.options.offline || this.stager.referenced > 0) this.stager.reset();
      throw err;
    }
    this.tagCounts[this.tagCounts.length - 1]! += tags.length;
    f.lastTs = tags[tags.length - 1]!.timestamp;
    const first = tags[0]!;
    if (isKeyframeData(first)) this.indexKeyframe(f, first.timestamp, start);
    this.afterGroup(f);
  }

  writePlain(g: PlainGroupWrite): void {
    const f = this.requireFile();
    this.flushStageTo(f);
    const start = f.size;
    this.appendBatched(f, g.parts);
    if (g.videoCount > 0) {
      if (f.videoFrames === 0) f.firstVideoTs = g.firstVideoTs;
      f.videoFrames += g.videoCount;
      f.lastVideoTs = g.lastVideoTs;
    }
    this.tagCounts[this.tagCounts.length - 1]! += g.tagCount;
    f.lastTs = g.lastTs;
    this.indexKeyframe(f, g.firstTs, start);
    this.afterGroup(f);
  }

  /** Writes `parts` in calls of at most WRITE_BATCH bytes (see there). */
  private appendBatched(f: OpenFile, parts: readonly Uint8Array[]): void {
    let batch: Uint8Array[] = [];
    let bytes = 0;
    for (let part of parts) {
      while (bytes + part.length > WRITE_BATCH) {
        const room = WRITE_BATCH - bytes;
        batch.push(part.subarray(0, room));
        this.appendTo(f, batch);
        part = part.subarray(room);
        batch = [];
        bytes = 0;
      }
      if (part.length > 0) batch.push(part);
      bytes += part.length;
    }
    if (batch.length > 0) this.appendTo(f, batch);
  }

  private indexKeyframe(f: OpenFile, ts: number, start: number): void {
    const lastKf = f.layout.lastKeyframeMs;
    if (lastKf === null || ts - lastKf > KEYFRAME_SPACING_MS) f.layout.addKeyframe(ts, start);
  }

  /** Live outputs keep onMetaData current as groups arrive; offline ones patch it at close. */
  private afterGroup(f: OpenFile): void {
    if (this.options.offline) return;
    if (f.lastTs - f.numbersAt >= NUMBERS_EVERY_MS || f.lastTs < f.numbersAt) this.flushNumbers(f);
    if (f.layout.pendingKeyframes > 0 && (f.layout.keyframeCount === 1 || Math.abs(f.lastTs - f.indexAt) >= INDEX_EVERY_MS)) {
      this.flushIndex(f);
    }
  }

  writeEnd(tag: FlvTag): void {
    this.requireFile();
    const body = tag.data ?? new Uint8Array(0);
    this.stageTag(tag.type, tag.timestamp, body);
    this.flushStage();
    this.tagCounts[this.tagCounts.length - 1]!++;
  }

  log(message: string, duration: number): void {
    if (this.file) this.file.log.write(message, duration, this.file.size + this.stager.length);
    else this.pendingLogs.push({ message, duration });
  }

  close(): FileClosedInfo | null {
    const f = this.file;
    if (!f) return null;
    try {
      if (!f.torn) this.flushStageTo(f);
    } catch {
      // Reported by the write that failed; what is on disk is cut back below.
    }
    this.file = null;
    this.stager.reset();
    try {
      // A failed write may have left part of a tag behind: cut back to the last whole one. (Only then:
      // a truncate on every close would make ext4 flush the file synchronously.)
      if (f.torn) this.fs.ftruncateSync(f.fd, f.size);
      this.flushNumbers(f);
      this.flushIndex(f);
    } catch {
      // The data part is already whole; a metadata patch that fails only loses duration/index freshness.
    } finally {
      this.fs.closeSync(f.fd);
    }
    const info: FileClosedInfo = { path: f.path, size: f.size, duration: f.lastTs / 1000 };
    this.options.onFileClosed?.(info);
    return info;
  }

  private buildMetadata(source: AmfMap, videoHeader: FlvTag | null): AmfMap {
    const map: AmfMap = new Map(source);
    map.set('duration', { type: 'Number', value: 0 });
    const video = videoHeaderInfo(videoHeader?.data ?? null);
    if (video) {
      map.set('width', { type: 'Number', value: video.width });
      map.set('height', { type: 'Number', value: video.height });
      // AVC keeps the source's fields untouched unless they name another codec (a switch mid-session).
      const id = metadataCodecId(video.codec, this.hevcForm);
      const old = map.get('videocodecid');
      if (video.codec === 'hevc' || (old !== undefined && (old.type !== 'Number' || old.value !== id))) map.set('videocodecid', { type: 'Number', value: id });
      if (video.fps > 0 && map.get('framerate')?.type !== 'Number') map.set('framerate', { type: 'Number', value: video.fps });
    }
    if (map.get('framerate')?.type !== 'Number') map.set('framerate', { type: 'Number', value: 0 });
    map.set('filesize', { type: 'Number', value: 0 });
    map.set('keyframes', KEYFRAMES_PLACEHOLDER);
    return map;
  }

  private get hevcForm(): HevcOutputForm {
    return this.options.hevcForm ?? 'enhanced';
  }

  /** A video body as written: HEVC in the chosen form (bodies are held in the codec-12 layout internally). */
  private videoBody(body: Uint8Array): Uint8Array {
    return this.hevcForm === 'enhanced' ? legacyToEnhanced(body) : body;
  }

  private flushNumbers(f: OpenFile): void {
    f.numbersAt = f.lastTs;
    this.patch(f, f.layout.setNumber('duration', f.lastTs / 1000));
    this.patch(f, f.layout.setNumber('filesize', f.size));
    if (f.videoFrames > 1 && f.lastVideoTs > f.firstVideoTs) {
      const fps = ((f.videoFrames - 1) * 1000) / (f.lastVideoTs - f.firstVideoTs);
      this.patch(f, f.layout.setNumber('framerate', Math.round(fps * 1000) / 1000));
    }
  }

  private flushIndex(f: OpenFile): void {
    f.indexAt = f.lastTs;
    this.patch(f, f.layout.renderIndex());
  }

  /** Rewrites a changed range of the script body in place (the body starts at byte 24 of the file). */
  private patch(f: OpenFile, range: { start: number; end: number } | null): void {
    if (!range) return;
    this.io(() => this.fs.writeSync(f.fd, f.layout.body, range.start, range.end - range.start, 24 + range.start), f.path);
  }

  /** Stages a tag as written: HEVC video in the chosen form, as a new head over the body (no copy). */
  private stageTag(type: number, timestamp: number, body: Uint8Array): void {
    const swap = type === TagType.Video && this.hevcForm === 'enhanced' ? legacyToEnhancedHead(body) : null;
    if (swap) this.stage(type, timestamp, body.subarray(swap.skip), swap.head);
    else this.stage(type, timestamp, body);
  }

  private stage(type: number, timestamp: number, body: Uint8Array, head?: Uint8Array): void {
    const size = body.length + (head?.length ?? 0);
    if (!this.stager.fits(size)) this.flushStage();
    if (this.stager.fits(size)) this.stager.add(type, timestamp, body, head);
    else this.append(encodeTag(type, timestamp, head ? Buffer.concat([head, body]) : body));
  }

  private flushStage(): void {
    this.flushStageTo(this.requireFile());
  }

  private flushStageTo(f: OpenFile): void {
    if (this.stager.length === 0) return;
    const bytes = this.stager.bytes();
    this.stager.reset();
    this.appendTo(f, bytes);
  }

  private append(bytes: Uint8Array): void {
    this.appendTo(this.requireFile(), [bytes]);
  }

  /** Writes the parts in order at the end of the file, however many calls the kernel needs. */
  private appendTo(f: OpenFile, parts: readonly Uint8Array[]): void {
    let total: number;
    try {
      total = this.io(() => writePartsAt(this.fs, f.fd, parts, f.size), f.path);
    } catch (err) {
      f.torn = true;
      throw err;
    }
    f.size += total;
    this.bytesWritten += total;
  }

  private io(fn: () => number, path: string): number {
    try {
      return fn();
    } catch (err) {
      throw new FlvError('OUTPUT_IO', `Cannot write ${path}: ${(err as Error).message}`, { cause: err });
    }
  }

  private requireFile(): OpenFile {
    if (!this.file) throw new FlvError('WRITER_FAILED', 'No output file is open.');
    return this.file;
  }
}
