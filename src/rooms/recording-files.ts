// Names, announces and labels a session's files: template paths, FileOpening/FileClosed, onMetaData additions.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AmfValue } from '../flv/amf.js';
import type { VideoCodec } from '../flv/codecs/video-format.js';
import type { AmfMap } from '../flv/metadata.js';
import type { FileClosedInfo } from '../flv/writer/output.js';
import type { RoomEventSnapshot } from '../events/types.js';
import { recordingPath } from '../template/recording-path.js';
import { formatLocal } from '../time.js';
import { VERSION } from '../version.js';
import type { MediaTimeline } from '../danmaku/media-clock.js';
import type { ActorOutbox } from './actor-outbox.js';
import { OpenJournal } from './open-journal.js';
import { eventSourceOf, type EventSource, type RecordingSource } from '../events/source.js';
import { FileGaps, writeGapSidecar } from './gaps/file-gaps.js';
import type { GapReason } from '../events/types.js';

/** What the files of a session need to know about their room and connection. */
export interface SessionFacts {
  sessionId: string;
  workDir: string;
  template: string | null;
  writeMetadata: boolean;
  snapshot: () => RoomEventSnapshot;
  uid: () => number;
  roomInfoJson: () => unknown;
  qn: () => number;
  streamHost: () => string;
  /** Told about every file and the media progress on it (the danmaku recorder). */
  timeline?: MediaTimeline;
  /** Throws (DISK_FULL) when no new file may be opened; called before FileOpening. */
  beforeNewFile?: () => void;
}

interface OpenEntry {
  relativePath: string;
  openTime: string;
  source?: EventSource;
}

export class RecordingFiles {
  private partIndex = 0;
  private codec: VideoCodec | 'av1' | null = null;
  private readonly open = new Map<string, OpenEntry>();
  private source: RecordingSource | null = null;
  /** The next FileOpening's BackfillMs: how far before the live position the file starts (a late start). */
  private backfillMs: number | null = null;
  /** Gaps of the open file and of the session (see gaps/file-gaps.ts). */
  readonly gaps = new FileGaps();

  private readonly journal: OpenJournal;

  constructor(private readonly facts: SessionFacts, private readonly outbox: ActorOutbox) {
    this.journal = new OpenJournal(facts.workDir);
  }

  /** Renders the next file's path (never an existing file), creates its folder and announces it. */
  nextPath(extension = '.flv'): string {
    const f = this.facts;
    f.beforeNewFile?.();
    const s = f.snapshot();
    const result = recordingPath(
      {
        roomId: s.RoomId, shortId: s.ShortId, name: s.Name, uid: f.uid(), title: s.Title, areaParent: s.AreaNameParent,
        areaChild: s.AreaNameChild, partIndex: ++this.partIndex, qn: f.qn(), json: f.roomInfoJson(),
      },
      { template: f.template, workDir: f.workDir, extension },
    );
    if (result.errorMessage) this.outbox.log('warn', `file name template: ${result.errorMessage}`, { status: result.status });
    mkdirSync(dirname(result.fullPath), { recursive: true });
    const openTime = formatLocal();
    const source = this.source ? eventSourceOf(this.source) : undefined;
    // Write-ahead: the journal names the file before it exists, so a kill from here on can never lose it.
    this.journal.fileOpening(s.RoomId, result.fullPath, f.sessionId, openTime, s);
    this.open.set(result.fullPath, { relativePath: result.relativePath, openTime, source });
    this.outbox.event({
      EventType: 'FileOpening', EventTimestamp: openTime,
      EventData: {
        ...s, SessionId: f.sessionId, RelativePath: result.relativePath, FileOpenTime: openTime, ...(source ? { Source: source } : {}),
        ...(this.backfillMs !== null ? { BackfillMs: this.backfillMs } : {}),
      },
    });
    this.backfillMs = null;
    return result.fullPath;
  }

  /** `codec`: what the file's video header says, which can differ from the URL's codec (a switch mid-stream). */
  opened(path: string, codec: VideoCodec | null = null): void {
    this.facts.timeline?.fileOpened(path);
    const entry = this.open.get(path);
    if (entry) this.outbox.file('opened', path, this.facts.sessionId, entry.openTime, entry.source);
    this.gaps.opened(entry?.relativePath ?? path);
    if (codec && codec !== this.codec) this.setCodec(codec, 'stream');
  }

  /** What the next files record (origin, re-encode, transcode): their FileOpening/FileClosed and onMetaData say so. */
  setSource(source: RecordingSource | null): void {
    this.source = source;
  }

  /** The Source of the next file (webhook shape), null when unknown. */
  eventSource(): EventSource | null {
    return this.source ? eventSourceOf(this.source) : null;
  }

  /** Announces the codec being recorded: room state and a log line, on the first file and on every change. */
  setCodec(codec: VideoCodec | 'av1', from: 'url' | 'stream'): void {
    if (codec === this.codec) return;
    const previous = this.codec;
    this.codec = codec;
    this.outbox.state({ recordingCodec: codec });
    this.outbox.log('info', previous ? `video codec changed from ${previous} to ${codec}` : `recording ${codec}`, { codec, from });
  }

  closed(info: FileClosedInfo): void {
    const entry = this.open.get(info.path);
    if (!entry) return;
    this.facts.timeline?.fileClosed(info.path);
    this.open.delete(info.path);
    const closeTime = formatLocal();
    // The event carries the path: the main thread publishes it, then records the file as closed in the journal.
    const gaps = this.gaps.take();
    if (gaps.length > 0) {
      try {
        writeGapSidecar(info.path, entry.relativePath, gaps);
      } catch (err) {
        this.outbox.log('warn', `cannot write the gap sidecar: ${(err as Error).message}`, { code: 'GAP_SIDECAR' });
      }
    }
    this.outbox.event({
      EventType: 'FileClosed', EventTimestamp: closeTime,
      EventData: {
        ...this.facts.snapshot(), SessionId: this.facts.sessionId, RelativePath: entry.relativePath,
        FileOpenTime: entry.openTime, FileCloseTime: closeTime, FileSize: info.size, Duration: info.duration,
        ...(entry.source ? { Source: entry.source } : {}),
        ...(gaps.length > 0 ? { Gaps: gaps } : {}),
      },
    }, info.path);
    this.outbox.file('closed', info.path, this.facts.sessionId, entry.openTime);
  }

  /** The next file starts `ms` before the live position (it was filled from older HLS segments). */
  backfilled(ms: number): void {
    this.backfillMs = Math.round(ms);
  }

  /**
   * The open file lacks `durationMs` of the stream at `startMs` of its timeline: recorded for its FileClosed,
   * shown on the room resource and logged.
   */
  gap(startMs: number, durationMs: number, reason: GapReason): void {
    if (!this.gaps.add(startMs, durationMs, reason)) return;
    this.outbox.state({ sessionGaps: [...this.gaps.session] });
    this.outbox.log('warn', `gap: the file lacks ${Math.round(durationMs)} ms of the stream at ${Math.round(startMs)} ms (${reason})`, { code: 'FILE_GAP', reason, startMs: Math.round(startMs), durationMs: Math.round(durationMs) });
  }

  /** Media progress on the open file (ms on its own timeline), reported by the capture as data arrives. */
  mediaPosition(ms: number): void {
    this.facts.timeline?.mediaPosition(ms);
  }

  /** brec's FlvWriteMetadata additions: Title, Artist, Comment and a recorder block. */
  decorate(map: AmfMap): void {
    if (!this.facts.writeMetadata) return;
    const s = this.facts.snapshot();
    const str = (value: string) => ({ type: 'String' as const, value });
    const num = (value: number) => ({ type: 'Number' as const, value });
    const now = new Date();
    map.set('Title', str(s.Title));
    map.set('Artist', str(`${s.Name} (${s.RoomId})`));
    map.set('Comment', str(
      `Room ${s.RoomId}${s.ShortId ? ` (short id ${s.ShortId})` : ''}, streamer ${s.Name}\n` +
      `Title: ${s.Title}\nArea: ${s.AreaNameParent} · ${s.AreaNameChild}\n` +
      `Recorded at ${formatLocal(now)} from ${this.facts.streamHost()}\nRecorded by liverec ${VERSION}`,
    ));
    map.set('liverec', {
      type: 'EcmaArray',
      value: new Map<string, AmfValue>([
        ['RecordedBy', str('liverec')],
        ['RecordedFrom', str(this.facts.streamHost())],
        ['RecorderVersion', str(VERSION)],
        ['StartTime', { type: 'Date', value: now.getTime(), offset: -now.getTimezoneOffset() }],
        ['RoomId', num(s.RoomId)],
        ['ShortId', num(s.ShortId)],
        ['Name', str(s.Name)],
        ['StreamTitle', str(s.Title)],
        ['AreaNameParent', str(s.AreaNameParent)],
        ['AreaNameChild', str(s.AreaNameChild)],
        ...sourceMetadata(this.source),
      ]),
    });
  }
}

/** The `liverec` onMetaData block's source entries: SourceKind, SourceQn, SourceCodec, SourceOriginBitrate, SourceEvidence. */
function sourceMetadata(source: RecordingSource | null): Array<[string, AmfValue]> {
  if (!source) return [];
  return [
    ['SourceKind', { type: 'String', value: source.kind }],
    ['SourceQn', { type: 'Number', value: source.qn }],
    ['SourceCodec', { type: 'String', value: source.codec }],
    ['SourceOriginBitrate', { type: 'Number', value: source.originBitrate }],
    ['SourceStreamName', { type: 'String', value: source.streamName }],
    ['SourceEvidence', { type: 'String', value: source.evidence.join('; ') }],
  ];
}
