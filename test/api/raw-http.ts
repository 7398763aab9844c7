// A raw HTTP/1.1 client for fuzzing: sends the bytes as given (any method, unescaped paths), parses one response.
import { connect } from 'node:net';
import type { FuzzCase } from './fuzz-cases.js';

export interface RawAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

function decodeChunked(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = Number.parseInt(data.subarray(i, eol).toString(), 16);
    if (!size) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** Parses one HTTP/1.1 response (the server closes the connection after it: we send Connection: close). */
export function parseRawResponse(data: Buffer): RawAnswer {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete response (${data.length} bytes received)`);
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1] ?? 0);
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let body = data.subarray(end + 4);
  if (headers.get('transfer-encoding') === 'chunked') body = decodeChunked(body);
  else if (headers.has('content-length')) body = body.subarray(0, Number(headers.get('content-length')));
  return { status, contentType: headers.get('content-type') ?? '', body };
}

/** Sends the request bytes exactly (any method, unescaped path, any header) over a fresh connection. */
export function sendRaw(url: string, c: FuzzCase): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(20_000, () => socket.destroy(new Error('timed out after 20 s')));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // The server may answer an oversized body with 413 and close while we are still writing: a correct refusal.
      if (chunks.length && (err.code === 'EPIPE' || err.code === 'ECONNRESET')) return;
      reject(err);
    });
    socket.on('close', () => {
      try {
        resolve(parseRawResponse(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
    const head = [`${c.method} ${c.path} HTTP/1.1`, `Host: ${c.headers.host ?? `${hostname}:${port}`}`, 'Connection: close'];
    for (const [k, v] of Object.entries(c.headers)) if (k !== 'host') head.push(`${k}: ${v}`);
    if (c.body && !c.chunked) head.push(`Content-Length: ${c.body.length}`);
    if (c.body && c.chunked) head.push('Transfer-Encoding: chunked');
    socket.write(Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'utf8'));
    if (c.body && c.chunked) {
      for (let i = 0; i < c.body.length; i += 64 * 1024) {
        const part = c.body.subarray(i, i + 64 * 1024);
        socket.write(`${part.length.toString(16)}\r\n`);
        socket.write(part);
        socket.write('\r\n');
      }
      socket.write('0\r\n\r\n');
    } else if (c.body) socket.write(c.body);
  });
}
