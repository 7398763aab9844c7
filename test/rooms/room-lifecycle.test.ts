// The room lifecycle machine: the table's journeys, illegal transitions (thrown in tests, counted in production), ending.
import { describe, expect, it } from 'vitest';
import { LIFECYCLE_STATES, RoomLifecycle, TRANSITIONS, type LifecycleRecord } from '../../src/rooms/room-lifecycle.js';

const machine = (strict = true): { m: RoomLifecycle; log: LifecycleRecord[]; anomalies: string[] } => {
  const log: LifecycleRecord[] = [];
  const anomalies: string[] = [];
  const m = new RoomLifecycle({ roomId: () => 7, strict, onTransition: (t) => log.push(t), onAnomaly: (msg) => anomalies.push(msg) });
  return { m, log, anomalies };
};

describe('room lifecycle', () => {
  it('every transition names legal source states and one target among the states', () => {
    for (const [name, rule] of Object.entries(TRANSITIONS)) {
      expect(LIFECYCLE_STATES, name).toContain(rule.to);
      expect(rule.from.length, name).toBeGreaterThan(0);
      for (const f of rule.from) expect(LIFECYCLE_STATES, name).toContain(f);
    }
  });

  it('walks an everyday journey: add, check, start, files, stop, end, remove', () => {
    const { m, log } = machine();
    m.to('add', 'added');
    m.to('check', 'batch');
    m.to('start', 'auto');
    m.to('opened', 'first-file');
    m.to('opened', 'split');
    m.to('stop', 'manual');
    m.to('ended', 'ended');
    m.to('remove', 'remove');
    expect(log.map((t) => `${t.name}:${t.from}>${t.to}`)).toEqual([
      'add:removed>idle', 'check:idle>checking', 'start:checking>starting', 'opened:starting>recording',
      'opened:recording>recording', 'stop:recording>stopping', 'ended:stopping>idle', 'remove:idle>removed',
    ]);
  });

  it('an illegal transition throws in strict mode and changes nothing', () => {
    const { m, anomalies } = machine();
    m.to('add', 'added');
    expect(() => m.to('opened', 'first-file')).toThrow(/illegal lifecycle transition opened/);
    expect(m.state).toBe('idle');
    expect(m.anomalies).toBe(1);
    expect(anomalies).toHaveLength(1);
  });

  it('in production an illegal transition is refused, counted and reported, and the room goes on', () => {
    const { m, anomalies } = machine(false);
    m.to('add', 'added');
    expect(m.to('ended', 'ended')).toBe(false);
    expect(m.state).toBe('idle');
    expect(m.anomalies).toBe(1);
    expect(anomalies[0]).toMatch(/room 7: illegal lifecycle transition ended \(ended\) from idle/);
    expect(m.to('check', 'poll')).toBe(true);
  });

  it('once a remove or shutdown begins, nothing starts or opens; a running session is told to stop', () => {
    const { m } = machine();
    m.to('add', 'added');
    m.to('start', 'manual');
    m.beginEnd('shutdown');
    expect(m.state).toBe('stopping');
    expect(m.can('opened')).toBe(false);
    expect(m.can('start')).toBe(false);
    m.to('ended', 'ended');
    expect(m.can('start')).toBe(false);
    expect(m.can('check')).toBe(false);
    m.to('remove', 'shutdown');
    expect(m.state).toBe('removed');
    expect(m.can('add')).toBe(false);
  });

  it('a check that ends after its start is not an anomaly (maybe)', () => {
    const { m } = machine();
    m.to('add', 'added');
    m.to('check', 'batch');
    m.to('start', 'auto');
    expect(m.maybe('checked', 'batch')).toBe(false);
    expect(m.state).toBe('starting');
    expect(m.anomalies).toBe(0);
  });
});
