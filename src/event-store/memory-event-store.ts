/**
 * An in-process `EventStore` for `@modelcontextprotocol/sdk` 1.x that keeps the
 * properties the SDK's example store lacks: events are ordered by an
 * allocation counter (never by the clock), a replay carries one stream's events
 * only, retention is bounded by count and age, and a cursor the store cannot
 * place (unknown, another session's, or older than retention) is answered
 * `undefined` by `getStreamIdForEventId`, never with a partial replay.
 */
import { randomBytes } from 'node:crypto';
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isPrimingMessage } from './priming.js';
import { ReplayBarrier } from './replay-barrier.js';

/** Retention bounds of a {@link MemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** Most events kept (all streams together); the oldest go first. Default 10 000. */
  maxEvents?: number;
  /** Events older than this are dropped, ms. Default 30 minutes. */
  maxAgeMs?: number;
  /** Clock for age retention only (never for order). Default `Date.now`. */
  now?: () => number;
}

interface StoredEvent {
  seq: number;
  streamId: StreamId;
  message: JSONRPCMessage;
  storedAt: number;
}

/**
 * One session's event log, in memory. Create one per streamable HTTP session
 * (the SDK names the standalone GET stream `_GET_stream` in every session, so
 * one store shared by sessions would mix their standalone streams).
 *
 * Event IDs are `<store tag>-<seq>`: the random tag makes a cursor of another
 * session (or another process) unknown here instead of naming a local event.
 *
 * @example
 * ```ts
 * const transport = new StreamableHTTPServerTransport({
 *   sessionIdGenerator: () => randomUUID(),
 *   eventStore: new MemoryEventStore({ maxEvents: 5000, maxAgeMs: 10 * 60_000 }),
 * });
 * ```
 */
export class MemoryEventStore implements EventStore {
  private readonly tag = randomBytes(6).toString('hex');
  private readonly maxEvents: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  /** Every retained event, oldest first; `seq` strictly increasing. */
  private readonly log: StoredEvent[] = [];
  /** The same events, per stream, oldest first. */
  private readonly streams = new Map<StreamId, StoredEvent[]>();
  private readonly bySeq = new Map<number, StoredEvent>();
  private nextSeq = 1;
  private readonly barrier = new ReplayBarrier();

  /**
   * @param options - retention bounds
   * @throws RangeError if a bound is not a positive number
   */
  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxEvents = options.maxEvents ?? 10_000;
    this.maxAgeMs = options.maxAgeMs ?? 30 * 60_000;
    this.now = options.now ?? Date.now;
    if (!(Number.isInteger(this.maxEvents) && this.maxEvents > 0)) throw new RangeError(`maxEvents must be a positive integer, got ${options.maxEvents}`);
    if (!(this.maxAgeMs > 0)) throw new RangeError(`maxAgeMs must be positive, got ${options.maxAgeMs}`);
  }

  /** Events currently retained, all streams together. */
  get size(): number {
    return this.log.length;
  }

  /** Stores `message` on `streamId` and returns its event ID. */
  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    return this.barrier.store(streamId, async () => this.append(streamId, message));
  }

  private append(streamId: StreamId, message: JSONRPCMessage): EventId {
    const event: StoredEvent = { seq: this.nextSeq++, streamId, message, storedAt: this.now() };
    this.log.push(event);
    this.bySeq.set(event.seq, event);
    const stream = this.streams.get(streamId);
    if (stream) stream.push(event);
    else this.streams.set(streamId, [event]);
    this.evict();
    return this.eventId(event.seq);
  }

  /** The stream `eventId` belongs to, or `undefined` if the store cannot place it (unknown, foreign or evicted). */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    this.evict();
    return this.find(eventId)?.streamId;
  }

  /**
   * Sends every event of the cursor's stream stored after it, in order, then returns the stream's ID.
   * Events stored while the replay awaits `send` are sent too, so nothing falls between the replay
   * and the live stream the transport registers afterwards.
   *
   * @throws Error if the cursor is unknown, foreign or evicted: a replay from it would have a gap
   */
  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    this.evict();
    const cursor = this.find(lastEventId);
    if (!cursor) throw new Error(`unknown or expired Last-Event-ID ${JSON.stringify(lastEventId)}`);
    const end = this.barrier.begin(cursor.streamId);
    try {
      let after = cursor.seq;
      for (;;) {
        // Eviction runs from the oldest: if the last event sent is gone, later ones may be too.
        if (!this.bySeq.has(after)) throw new Error(`events after ${JSON.stringify(lastEventId)} were evicted during the replay`);
        const next = this.firstAfter(cursor.streamId, after);
        if (!next) return cursor.streamId;
        after = next.seq;
        if (!isPrimingMessage(next.message)) await send(this.eventId(next.seq), next.message);
      }
    } finally {
      end();
    }
  }

  private eventId(seq: number): EventId {
    return `${this.tag}-${seq}`;
  }

  private find(eventId: EventId): StoredEvent | undefined {
    const dash = eventId.lastIndexOf('-');
    if (dash < 0 || eventId.slice(0, dash) !== this.tag) return undefined;
    const digits = eventId.slice(dash + 1);
    if (!/^[1-9]\d{0,15}$/.test(digits)) return undefined;
    return this.bySeq.get(Number(digits));
  }

  /** The first retained event of `streamId` with a seq above `seq` (binary search: seqs ascend). */
  private firstAfter(streamId: StreamId, seq: number): StoredEvent | undefined {
    const events = this.streams.get(streamId);
    if (!events) return undefined;
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (events[mid]!.seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return events[lo];
  }

  /** Drops the oldest events beyond the count bound or past the age bound. Oldest first, so no retained cursor ever has a gap after it. */
  private evict(): void {
    const cutoff = this.now() - this.maxAgeMs;
    let drop = 0;
    while (drop < this.log.length && (this.log.length - drop > this.maxEvents || this.log[drop]!.storedAt < cutoff)) drop++;
    if (drop === 0) return;
    for (const event of this.log.splice(0, drop)) {
      this.bySeq.delete(event.seq);
      const stream = this.streams.get(event.streamId)!;
      stream.shift();
      if (stream.length === 0) this.streams.delete(event.streamId);
    }
  }
}
