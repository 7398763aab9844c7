// Turns received danmaku messages into typed events, auth replies and counters; bad input is counted, never thrown.
import { overJsonBudget } from '../json-budget.js';
import { type DanmakuEvent, MalformedCommand, parseCommandEvents } from './commands.js';
import { GiftDedupe } from './gift-dedupe.js';
import { decodePackets, newPacketAnomalies, Op, type Packet } from './packet.js';

/** The largest command body parsed (real ones are a few KiB; the biggest seen are tens of KiB). */
export const MAX_COMMAND_BYTES = 256 * 1024;

export interface DanmakuStats {
  connects: number;
  disconnects: number;
  heartbeatsSent: number;
  heartbeatReplies: number;
  popularity: number;
  events: number;
  ignoredCommands: number;
  authFailures: number;
  anomalies: { truncated: number; badCompression: number; badJson: number; malformedCommands: number; unknownOps: number };
}

export function newDanmakuStats(): DanmakuStats {
  return {
    connects: 0, disconnects: 0, heartbeatsSent: 0, heartbeatReplies: 0, popularity: 0, events: 0, ignoredCommands: 0, authFailures: 0,
    anomalies: { truncated: 0, badCompression: 0, badJson: 0, malformedCommands: 0, unknownOps: 0 },
  };
}

export interface ReceiverSink {
  event(ev: DanmakuEvent): void;
  /** The op-8 reply to the auth packet (0 = accepted). */
  authReply(code: number): void;
}

export class DanmakuReceiver {
  private readonly packetAnomalies = newPacketAnomalies();
  /** SEND_GIFT and SEND_GIFT_V2 of one gift: the second is counted as ignored. */
  private readonly gifts = new GiftDedupe();

  constructor(private readonly stats: DanmakuStats, private readonly sink: ReceiverSink) {}

  receive(data: Buffer): void {
    const a = this.packetAnomalies;
    const truncated = a.truncated;
    const badCompression = a.badCompression;
    const packets = decodePackets(data, a);
    this.stats.anomalies.truncated += a.truncated - truncated;
    this.stats.anomalies.badCompression += a.badCompression - badCompression;
    for (const p of packets) this.packet(p);
  }

  private packet(p: Packet): void {
    switch (p.op) {
      case Op.HeartbeatReply:
        this.stats.heartbeatReplies++;
        if (p.body.length >= 4) this.stats.popularity = p.body.readUInt32BE(0);
        return;
      case Op.AuthReply:
        return this.authReply(p.body);
      case Op.Command:
        return this.command(p.body);
      default:
        this.stats.anomalies.unknownOps++;
    }
  }

  private authReply(body: Buffer): void {
    let code = 0;
    try {
      const reply = JSON.parse(body.toString('utf8')) as { code?: unknown };
      code = typeof reply.code === 'number' ? reply.code : 0;
    } catch {
      this.stats.anomalies.badJson++;
    }
    this.sink.authReply(code);
  }

  private command(body: Buffer): void {
    if (body.length > MAX_COMMAND_BYTES) {
      // Not parsed at all: a 15 MB title must not become a string that travels to the main thread.
      this.stats.anomalies.malformedCommands++;
      return;
    }
    let raw: unknown;
    const text = body.toString('utf8');
    // The live API's parse budget (json-budget.ts): a 256 KiB `[[[…]]]` would still build 128,000 arrays.
    if (overJsonBudget(text) !== null) {
      this.stats.anomalies.malformedCommands++;
      return;
    }
    try {
      raw = JSON.parse(text);
    } catch {
      this.stats.anomalies.badJson++;
      return;
    }
    let events: DanmakuEvent[];
    try {
      events = parseCommandEvents(raw);
    } catch (err) {
      if (!(err instanceof MalformedCommand)) throw err;
      this.stats.anomalies.malformedCommands++;
      return;
    }
    if (events.length === 0) this.stats.ignoredCommands++;
    for (const ev of events) {
      if (!this.gifts.admit(ev)) {
        this.stats.ignoredCommands++;
        continue;
      }
      this.stats.events++;
      this.sink.event(ev);
    }
  }
}
