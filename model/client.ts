/**
 * The client and the network as pure functions over one stream's client-side state: receive a
 * frame off the wire, drain it to the application, drop the connection. The policy decides
 * when the cursor moves and whether a repeated event ID is dropped.
 */
import type { ClientPolicy } from './policy.js';
import type { ClientStream, WorldEvent } from './world-types.js';
import { streamWith } from './world-values.js';

/** The client's transport parses the next frame off the wire into the inbox. */
export function receive(stream: ClientStream, policy: ClientPolicy): ClientStream {
  const frame = stream.wire[0];
  if (!frame) return stream;
  return streamWith(stream, {
    wire: stream.wire.slice(1),
    inbox: [...stream.inbox, frame],
    cursor: policy.cursorAdvance === 'onReceive' ? frame.id : stream.cursor,
  });
}

/** The application processes the oldest received frame; `processed` is false when dedup discarded it. */
export function drain(stream: ClientStream, policy: ClientPolicy): { stream: ClientStream; frame: WorldEvent | undefined; processed: boolean } {
  const frame = stream.inbox[0];
  if (!frame) return { stream, frame: undefined, processed: false };
  const inbox = stream.inbox.slice(1);
  const duplicate = stream.drained.includes(frame.id);
  const processed = !(policy.dedup && duplicate);
  return {
    frame,
    processed,
    stream: streamWith(stream, {
      inbox,
      drained: processed ? [...stream.drained, frame.id] : stream.drained,
      cursor: policy.cursorAdvance === 'onDrain' && processed ? frame.id : stream.cursor,
    }),
  };
}

/**
 * The connection is severed. Frames in flight and frames received but not drained are lost on
 * the client side (an unclean drop); when both are empty the drop is clean.
 */
export function drop(stream: ClientStream): ClientStream {
  return streamWith(stream, { connected: false, wire: [], inbox: [] });
}

/** Whether dropping now loses nothing on the client side. */
export function isCleanDrop(stream: ClientStream): boolean {
  return stream.wire.length === 0 && stream.inbox.length === 0;
}

/** A connection now carries `frames` for this stream (a replay, or nothing for a quiet stream). */
export function connect(stream: ClientStream, frames: WorldEvent[]): ClientStream {
  return streamWith(stream, { connected: true, wire: [...frames], inbox: [] });
}

/** The server wrote frames on this stream's live connection. */
export function deliver(stream: ClientStream, frames: WorldEvent[]): ClientStream {
  return frames.length === 0 ? stream : streamWith(stream, { wire: [...stream.wire, ...frames] });
}
