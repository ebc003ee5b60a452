/**
 * Closes the gap between a replay and the live stream the SDK registers after it.
 *
 * `StreamableHTTPServerTransport` registers a resumed stream only once `replayEventsAfter` has
 * resolved, and its `send()` writes an event live only if, once `storeEvent` has resolved, the
 * stream is registered. An event stored just after the replay's last read would otherwise be
 * neither replayed nor written. So while a replay of a stream runs, and until the macrotask in
 * which it returned is over (the transport registers the stream in microtasks of that task),
 * `storeEvent` on that stream resolves only after a `setImmediate`, by which time the stream is
 * registered and the event is written live (or skipped, if the replay already sent it).
 */
import type { StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** One per store: tracks the store's replays and in-flight writes per MCP stream. */
export class ReplayBarrier {
  private readonly replaying = new Map<StreamId, number>();
  private readonly inFlight = new Map<StreamId, Set<Promise<unknown>>>();

  /** Marks a replay of `streamId` as running; the returned function ends it (the mark lasts until the next macrotask). */
  begin(streamId: StreamId): () => void {
    this.replaying.set(streamId, (this.replaying.get(streamId) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      setImmediate(() => {
        const left = (this.replaying.get(streamId) ?? 1) - 1;
        if (left > 0) this.replaying.set(streamId, left);
        else this.replaying.delete(streamId);
      });
    };
  }

  /** Runs one store of an event on `streamId`, tracked as in flight, then holds its result back while a replay of the stream is marked. */
  async store<T>(streamId: StreamId, write: () => Promise<T>): Promise<T> {
    const pending = write();
    const set = this.inFlight.get(streamId) ?? new Set();
    this.inFlight.set(streamId, set);
    set.add(pending);
    try {
      return await pending;
    } finally {
      set.delete(pending);
      if (set.size === 0 && this.inFlight.get(streamId) === set) this.inFlight.delete(streamId);
      if (this.replaying.has(streamId)) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Stores on `streamId` that have been issued and not yet answered. */
  pending(streamId: StreamId): Promise<unknown>[] {
    return [...(this.inFlight.get(streamId) ?? [])];
  }
}
