// Room threads lower their own CPU priority (Linux); the main thread keeps its own.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const niceOf = (path: string): number => Number(readFileSync(path, 'utf8').split(') ')[1]!.split(' ')[16]);

describe.runIf(process.platform === 'linux')('lowerThreadPriority', () => {
  it('renices only the calling thread', async () => {
    const before = niceOf('/proc/self/stat');
    const source = `
      const { parentPort } = require('node:worker_threads');
      const { readFileSync, readlinkSync } = require('node:fs');
      import(${JSON.stringify(new URL('../../dist/src/rooms/thread-priority.js', import.meta.url).href)}).then((m) => {
        const changed = m.lowerThreadPriority(5);
        const nice = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16]);
        parentPort.postMessage({ changed, nice });
      });`;
    const worker = new Worker(source, { eval: true });
    const result = await new Promise<{ changed: boolean; nice: number }>((resolve) => worker.once('message', resolve));
    await worker.terminate();
    expect(result.changed).toBe(true);
    expect(result.nice).toBe(before + 5);
    expect(niceOf('/proc/self/stat')).toBe(before);
  });
});
