// /api/file listings and /file/** downloads: confined to the work directory, dot entries hidden, Range support.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startFixture, type ApiFixture } from './fixture.js';

let fx: ApiFixture;
let outside: string;
const CONTENT = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

beforeAll(async () => {
  fx = await startFixture();
  outside = mkdtempSync(join(tmpdir(), 'liverec-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'SECRET');
  mkdirSync(join(fx.workDir, 'rec', 'deep'), { recursive: true });
  writeFileSync(join(fx.workDir, 'rec', 'a.flv'), CONTENT);
  writeFileSync(join(fx.workDir, 'rec', 'deep', 'b.xml'), '<i/>');
  writeFileSync(join(fx.workDir, 'rec', '.hidden.flv'), 'H');
  mkdirSync(join(fx.workDir, '.liverec'), { recursive: true });
  writeFileSync(join(fx.workDir, '.liverec', 'journal'), 'J');
  writeFileSync(join(fx.workDir, 'empty.flv'), '');
  symlinkSync(outside, join(fx.workDir, 'rec', 'out-dir'));
  symlinkSync(join(outside, 'secret.txt'), join(fx.workDir, 'rec', 'out-file.txt'));
  symlinkSync(join(fx.workDir, 'rec', 'a.flv'), join(fx.workDir, 'rec', 'in-link.flv'));
});
afterAll(async () => fx?.close());

const list = async (path: string): Promise<any> => (await fx.call('GET', `/api/file?path=${encodeURIComponent(path)}`)).json();

describe('GET /api/file', () => {
  it('lists a folder: folders and files, dot entries and symlinks out hidden, path echoed verbatim', async () => {
    const r = await list('/rec/');
    expect(r.exist).toBe(true);
    expect(r.path).toBe('/rec/');
    const byName = Object.fromEntries(r.files.map((f: any) => [f.name, f]));
    expect(Object.keys(byName).sort()).toEqual(['a.flv', 'deep', 'in-link.flv']);
    expect(byName['a.flv']).toEqual({ isFolder: false, name: 'a.flv', lastModified: expect.stringMatching(/\+00:00$/), size: 1000, url: '/file/rec/a.flv' });
    expect(byName.deep).toEqual({ isFolder: true, name: 'deep', lastModified: expect.stringMatching(/\+00:00$/) });
    expect((await list('rec')).path).toBe('rec');
    expect((await list('/')).files.map((f: any) => f.name).sort()).toEqual(['config.json', 'empty.flv', 'rec']);
  });

  it.each([
    ['missing', ''], ['..', '/..'], ['../ deep', '/rec/../..'], ['%2e%2e', '/%2e%2e/'], ['absolute /etc', '/etc'], ['backslashes', '\\..\\..'],
    ['a dot dir', '/.liverec'], ['a symlink out', '/rec/out-dir'], ['a file', '/rec/a.flv'], ['NUL', '/rec\0'], ['not there', '/nope'],
  ])('refuses %s with exist:false', async (_name, path) => {
    const r = await list(path);
    expect(r).toEqual({ exist: false, path: '', files: [] });
  });

  it('lists nothing when the file browser is disabled', async () => {
    const off = await startFixture({ fileBrowser: false, rooms: [] });
    try {
      expect(await (await off.call('GET', '/api/file?path=/')).json()).toEqual({ exist: false, path: '', files: [] });
      expect((await off.call('GET', '/file/config.json')).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('GET /file/**', () => {
  it('serves a file with type, length, ETag and Accept-Ranges; HEAD without a body', async () => {
    const res = await fetch(`${fx.url}/file/rec/a.flv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/x-flv');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe('1000');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(CONTENT);
    const head = await rawRequest(fx.url, 'HEAD', '/file/rec/a.flv');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('1000');
    expect(head.body.length).toBe(0);
    const etag = res.headers.get('etag')!;
    expect((await fetch(`${fx.url}/file/rec/a.flv`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(`${fx.url}/file/empty.flv`)).status).toBe(200);
    expect((await fetch(`${fx.url}/file/rec/deep/b.xml`)).headers.get('content-type')).toBe('text/xml');
    expect(await (await fetch(`${fx.url}/file/rec/in-link.flv`)).arrayBuffer()).toHaveProperty('byteLength', 1000);
  });

  it.each([
    ['bytes=0-99', 206, 0, 99], ['bytes=900-', 206, 900, 999], ['bytes=-10', 206, 990, 999], ['bytes=990-5000', 206, 990, 999],
  ])('Range %s → %i', async (range, status, start, end) => {
    const res = await fetch(`${fx.url}/file/rec/a.flv`, { headers: { range } });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/1000`);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(CONTENT.subarray(start, end + 1));
  });

  it('answers unsatisfiable ranges with 416 and ignores malformed or multiple ranges', async () => {
    for (const range of ['bytes=1000-', 'bytes=5000-6000', 'bytes=-0']) {
      const res = await fetch(`${fx.url}/file/rec/a.flv`, { headers: { range } });
      expect(res.status, range).toBe(416);
      expect(res.headers.get('content-range')).toBe('bytes */1000');
    }
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-1', 'bytes=x-y']) {
      expect((await fetch(`${fx.url}/file/rec/a.flv`, { headers: { range } })).status, range).toBe(200);
    }
    const ifRange = await fetch(`${fx.url}/file/rec/a.flv`, { headers: { range: 'bytes=0-1', 'if-range': 'W/"stale"' } });
    expect(ifRange.status).toBe(200);
  });

  it('lists folders (trailing slash) and redirects without one', async () => {
    const dir = await rawRequest(fx.url, 'GET', '/file/rec');
    expect(dir.status).toBe(301);
    expect(dir.headers.location).toBe('/file/rec/');
    const html = (await rawRequest(fx.url, 'GET', '/file/rec/')).body.toString();
    expect(html).toContain('a.flv');
    expect(html).not.toContain('.hidden');
    expect(html).not.toContain('out-dir');
  });

  it.each([
    '/file/../config.json', '/file/rec/../../etc/passwd', '/file/%2e%2e/%2e%2e/etc/passwd', '/file/%2E%2E%2Fetc%2Fpasswd',
    '/file/rec/..%2f..%2f..%2fetc%2fpasswd', '/file//etc/passwd', '/file/%2Fetc%2Fpasswd', '/file/rec/out-file.txt',
    '/file/rec/out-dir/secret.txt', '/file/rec/.hidden.flv', '/file/.liverec/journal', '/file/rec/%00', '/file/rec/..\\..\\x',
    '/file/rec/%5c..%5c..%5cetc%5cpasswd',
  ])('refuses %s (while /file/config.json and in-tree links are served)', async (path) => {
    expect((await rawRequest(fx.url, 'GET', '/file/config.json')).status).toBe(200);
    const res = await rawRequest(fx.url, 'GET', path);
    expect([400, 404]).toContain(res.status);
    expect(res.body.toString()).not.toContain('SECRET');
    expect(res.body.toString()).not.toContain('root:');
  });
});
