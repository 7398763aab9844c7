// brec's --bind argument: a bare port means localhost, else scheme://host[:port][/ignored path]; default port 2356.
import { isIP } from 'node:net';
import { logger } from '../log/logger.js';

export const DEFAULT_PORT = 2356;

export type ListenTarget =
  | { kind: 'loopback' } // localhost: 127.0.0.1 and ::1
  | { kind: 'address'; address: string }
  | { kind: 'any' }; // every interface

export interface BindSpec {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  listen: ListenTarget;
}

const BIND = /^(https?):\/\/(\[[0-9a-fA-F:.]+\]|[^:/[\]]+)(?::(\d{1,5}))?(\/.*)?$/i;

function target(host: string): ListenTarget {
  const h = host.startsWith('[') ? host.slice(1, -1) : host;
  if (h.toLowerCase() === 'localhost') return { kind: 'loopback' };
  if (isIP(h)) return { kind: 'address', address: h };
  return { kind: 'any' }; // `*`, `+` and host names listen everywhere, as Kestrel does
}

/** A bind argument's meaning, or null when it is neither a port (0-65535) nor scheme://host[:port]. */
export function tryParseBind(bind: string | number | undefined): BindSpec | null {
  const text = String(bind ?? '').trim();
  if (/^\d{1,5}$/.test(text) && Number(text) <= 65535) return { scheme: 'http', host: 'localhost', port: Number(text), listen: { kind: 'loopback' } };
  const m = BIND.exec(text);
  if (m && (m[3] === undefined || Number(m[3]) <= 65535)) {
    const host = m[2]!;
    return { scheme: m[1]!.toLowerCase() as 'http' | 'https', host, port: m[3] === undefined ? DEFAULT_PORT : Number(m[3]), listen: target(host) };
  }
  return null;
}

/**
 * Parses a bind argument; unparsable values fall back to http://localhost:2356 with a warning, as brec does.
 * The command line refuses them before this (src/cli/flag-values.ts); this fallback serves in-process callers.
 */
export function parseBind(bind: string | number | undefined): BindSpec {
  const text = String(bind ?? '').trim();
  const spec = tryParseBind(text);
  if (spec) return spec;
  if (text !== '') logger().warn({ bind: text }, 'unparsable --bind value; using http://localhost:2356');
  return { scheme: 'http', host: 'localhost', port: DEFAULT_PORT, listen: { kind: 'loopback' } };
}
