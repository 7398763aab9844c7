// Regression (docs/testing.md, soak seeds 4545/4646): header changes around FLV outages and restarts must leave every
// file decodable, frame by frame. The model's own commands and invariants run it; a last command decodes every
// closed file in full (ffprobe -count_frames at -v error), which the model's probe (headers and packets) does not.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeStreams } from '../support/media-tools.js';
import { AddRoom, HeaderChange, Restart, RoomCommand, StartStop, StreamLoss } from './commands.js';
import { fileEvents, InvariantError } from './invariants.js';
import type { Model } from './model.js';
import type { RealSystem } from './real-system.js';
import { playScenario } from './scenario.js';

class DecodeEveryFile extends RoomCommand {
  decoded = 0;
  check(): boolean {
    return true;
  }
  protected async act(_m: Model, r: RealSystem): Promise<void> {
    const bad: string[] = [];
    for (const [path, f] of fileEvents(r)) {
      if (f.closed.length === 0) continue;
      const p = await probeStreams(join(r.dir, path), 'frames');
      this.decoded++;
      if (p.errors !== '') bad.push(`${path}: ${p.errors.split('\n').slice(0, 3).join(' / ')}`);
    }
    if (bad.length) throw new InvariantError(`decode errors:\n${bad.join('\n')}`);
  }
  toString(): string {
    return 'decodeEveryClosedFile()';
  }
}

const ROOM = 0;
const outage = (): StreamLoss => new StreamLoss(ROOM, 'flv-outage', 4);

describe('header change around FLV outages and restarts (fMP4 HLS in between)', () => {
  it('every file decodes: add, headerChange, flvOutage ×2, headerChange, flvOutage, stop', async () => {
    const decode = new DecodeEveryFile();
    const steps = await playScenario({
      initialLive: [true, false, false, false, false],
      commands: [new AddRoom(ROOM, 'id', true), new HeaderChange(ROOM), outage(), outage(), new HeaderChange(ROOM), outage(), new StartStop(ROOM, 'stop'), decode],
    }, (line) => console.log(line));
    expect(steps).toBe(8);
    expect(decode.decoded).toBeGreaterThanOrEqual(2); // a file before and after each header change at least
  }, 240_000);

  it('every file decodes: a late start after kill -9 reaches back over a header change', async () => {
    const decode = new DecodeEveryFile();
    const steps = await playScenario({
      initialLive: [true, false, false, false, false],
      // The outages after the change let its segments fill the live window, so the reach back starts under the new init.
      commands: [new AddRoom(ROOM, 'id', true), new HeaderChange(ROOM), outage(), outage(), new Restart('SIGKILL'), new StartStop(ROOM, 'stop'), decode],
    }, (line) => console.log(line));
    expect(steps).toBe(7);
    expect(decode.decoded).toBeGreaterThanOrEqual(2);
  }, 240_000);
});
