// Markers: moments a person marked while watching, kept beside the recording as `<name>.markers.json`.
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { atomicWriteFile } from '../config/atomic-write.js';
import { LiverecError } from '../errors.js';

export interface Marker {
  id: string;
  /** Milliseconds on the recording's timeline. */
  atMs: number;
  label: string;
  /** ISO 8601. */
  createdAt: string;
}

export const MAX_MARKERS = 1000;
export const MAX_LABEL = 200;

/**
 * `x.flv` → `x.markers.json`: the base name, as the danmaku XML, so the markers stay with the recording when a remux
 * turns it into `x.mp4`.
 */
export const markersPath = (recording: string): string => `${recording.replace(/\.[^./\\]+$/, '')}.markers.json`;

interface MarkersFile {
  version: 1;
  markers: Marker[];
}

const isMarker = (m: unknown): m is Marker => {
  const x = m as Marker;
  return typeof x === 'object' && x !== null && typeof x.id === 'string' && Number.isFinite(x.atMs) && typeof x.label === 'string' && typeof x.createdAt === 'string';
};

/** The recording's markers by time; a missing file is none, an unreadable one is an error (never overwritten). */
export function readMarkers(recording: string): Marker[] {
  const path = markersPath(recording);
  if (!existsSync(path)) return [];
  let data: MarkersFile;
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as MarkersFile;
  } catch (err) {
    throw new LiverecError('MARKERS_UNREADABLE', `${path} is not a markers file: ${(err as Error).message}`);
  }
  if (!Array.isArray(data?.markers)) throw new LiverecError('MARKERS_UNREADABLE', `${path} has no markers list`);
  return data.markers.filter(isMarker).sort((a, b) => a.atMs - b.atMs);
}

function write(recording: string, markers: Marker[]): void {
  const file: MarkersFile = { version: 1, markers };
  atomicWriteFile(markersPath(recording), `${JSON.stringify(file, null, 2)}\n`);
}

export function addMarker(recording: string, atMs: number, label = ''): Marker {
  if (!Number.isFinite(atMs) || atMs < 0) throw new LiverecError('MARKER_BAD_TIME', 'atMs must be a number ≥ 0');
  if (label.length > MAX_LABEL) throw new LiverecError('MARKER_BAD_LABEL', `a label holds at most ${MAX_LABEL} characters`);
  const markers = readMarkers(recording);
  if (markers.length >= MAX_MARKERS) throw new LiverecError('MARKERS_FULL', `a recording holds at most ${MAX_MARKERS} markers`);
  const marker: Marker = { id: randomBytes(6).toString('hex'), atMs: Math.round(atMs), label, createdAt: new Date().toISOString() };
  write(recording, [...markers, marker].sort((a, b) => a.atMs - b.atMs));
  return marker;
}

/** Removes one marker; false when there was none with that id. */
export function removeMarker(recording: string, id: string): boolean {
  const markers = readMarkers(recording);
  const left = markers.filter((m) => m.id !== id);
  if (left.length === markers.length) return false;
  write(recording, left);
  return true;
}

/**
 * Adds the file's markers to its FileClosed (the webhook extension `Markers`); a missing or unreadable markers file
 * adds nothing: the event is never held up by it.
 */
export function attachMarkers(data: { Markers?: { AtMs: number; Label: string }[] }, recording: string): void {
  try {
    const markers = existsSync(markersPath(recording)) ? readMarkers(recording) : [];
    if (markers.length > 0) data.Markers = markers.map((m) => ({ AtMs: m.atMs, Label: m.label }));
  } catch {
    // Reported where the markers are read for a person (GET /api/file/markers).
  }
}
