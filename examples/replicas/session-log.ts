/**
 * The event log a replica writes through the SDK's transport and follows for the GET streams it
 * holds. Two kinds, so that the replicated deployment and the broken one differ in this only:
 * - `RedisSessionLog`: shared by every replica (Redis Streams through `RedisEventStore`); a stream
 *   is followed live with `XREAD BLOCK` on a connection of its own, so events a tool call on
 *   another replica stores reach the replica holding the client's GET stream;
 * - `LocalSessionLog`: one `MemoryEventStore` per session in each replica, followed in-process;
 *   what another replica stores never arrives.
 */
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Called for each event a follower delivers; returns false to stop following. */
export type Deliver = (eventId: EventId, message: JSONRPCMessage) => boolean;

/** One replica's view of the sessions' event logs. */
export interface SessionLog {
  /** The store the SDK transport of a session writes to. */
  store(sessionId: string): EventStore;
  /** The MCP stream a cursor belongs to, or undefined if this log cannot place it. */
  locate(sessionId: string, cursor: EventId): Promise<StreamId | undefined>;
  /**
   * Where a follower of `streamId` that has no cursor starts: after everything stored so far.
   * Taken before the stream's head is sent, so nothing stored afterwards is missed.
   */
  tail(sessionId: string, streamId: StreamId): Promise<EventId | undefined>;
  /**
   * Delivers the stream's events stored after `after` (from now on if undefined), then every new
   * one, until `deliver` returns false, `signal` aborts, or `alive()` turns false.
   */
  follow(
    sessionId: string,
    streamId: StreamId,
    after: EventId | undefined,
    deliver: Deliver,
    signal: AbortSignal,
    alive: () => Promise<boolean>,
  ): Promise<void>;
  /** Forgets a session's events. */
  clear(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

/** How often a follower with nothing to read checks that its session still exists, ms. */
export const IDLE_CHECK_MS = 1000;
