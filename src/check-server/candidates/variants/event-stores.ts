/**
 * Small, correct event stores for the SDK's `StreamableHTTPServerTransport`, differing only in
 * the format of the event IDs they mint. Each orders events by an allocation counter (never by
 * the ID or the clock), replays strictly after the cursor on the cursor's own stream, and knows
 * nothing of a cursor it did not mint (`getStreamIdForEventId` answers `undefined`).
 */
import { randomUUID } from 'node:crypto';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Mints one event ID: `n` is the session-wide allocation counter, `streamN` the stream's own. */
export type MintEventId = (streamId: string, n: number, streamN: number) => string;

interface Stored {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
}

/** One session's events, in allocation order. */
export class OrderedEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private readonly index = new Map<string, number>();
  private readonly perStream = new Map<string, number>();

  constructor(private readonly mint: MintEventId) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const streamN = (this.perStream.get(streamId) ?? 0) + 1;
    this.perStream.set(streamId, streamN);
    const id = this.mint(streamId, this.events.length + 1, streamN);
    if (this.index.has(id)) throw new Error(`event ID ${id} minted twice`);
    this.index.set(id, this.events.length);
    this.events.push({ id, streamId, message });
    return id;
  }

  /** Whether this store minted `eventId`. */
  knows(eventId: string): boolean {
    return this.index.has(eventId);
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    const at = this.index.get(eventId);
    return at === undefined ? undefined : this.events[at]!.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const at = this.index.get(lastEventId);
    if (at === undefined) throw new Error(`unknown event ID ${lastEventId}`);
    const { streamId } = this.events[at]!;
    for (const event of this.events.slice(at + 1)) {
      if (event.streamId === streamId) await send(event.id, event.message);
    }
    return streamId;
  }
}

/** `1`, `2`, `3`, ... per session: the same IDs recur in every session (unique within one). */
export const sessionCounter: MintEventId = (_stream, n) => String(n);

/** `<stream>/<n>`, counted per stream. */
export const streamCounter: MintEventId = (streamId, _n, streamN) => `${streamId}/${streamN}`;

/** Random UUIDs: no order can be read off them. */
export const uuids: MintEventId = () => randomUUID();

/** `<Date.now()>-<n>`: a timestamp made unique by the allocation counter. */
export const timestampCounter: MintEventId = (_stream, n) => `${Date.now()}-${n}`;
