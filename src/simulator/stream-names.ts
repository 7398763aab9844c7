// Opaque stream names (`live_b4av85_2500` style, seeker PR #10) for rooms that ask for them, and their canonical form.

type Codec = 'avc' | 'hevc' | 'av1';
const TAG: Record<Codec, string> = { avc: '2500', hevc: 'minihevc', av1: 'av1' };
const SUFFIX: Record<string, string> = { 2500: '', minihevc: '_prohevc', av1: '_av1' };

/** An opaque stem: room id and session in base 36 around letters, then a quality tag; nothing a client can parse. */
export function opaqueStem(roomId: number, session: number, codec: Codec): string {
  return `live_b${roomId.toString(36)}av${session.toString(36)}_${TAG[codec]}`;
}

const OPAQUE = /\/live_b([0-9a-z]+)av([0-9a-z]+)_(2500|minihevc|av1)(?=[/.-])/;

/** A media path with an opaque stem rewritten to `live_<room>_<session>[_prohevc|_av1]`, the form the media routes read. */
export function canonicalPath(path: string): string {
  const m = OPAQUE.exec(path);
  if (!m) return path;
  return path.replace(OPAQUE, `/live_${parseInt(m[1]!, 36)}_${parseInt(m[2]!, 36)}${SUFFIX[m[3]!]}`);
}
