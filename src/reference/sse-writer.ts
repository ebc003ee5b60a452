/**
 * SSE on the wire: the response head of a stream and the bytes of each stored event. The session
 * machine says which events go out; this module only says how they look.
 */
import type { ServerResponse } from 'node:http';
import type { StoredEvent } from '../../model/session-types.js';

/**
 * Starts an SSE response and pushes the head out at once, so a client sees the stream open even
 * when nothing is written on it (a quiet stream).
 */
export function writeSseHead(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
  });
  res.flushHeaders();
}

/**
 * The bytes of one event.
 * - `endpoint` (legacy opening): `event: endpoint`, its ID, and the POST URI as data;
 * - `priming` (streamable opening): an ID and empty data (SEP-1699);
 * - a message: `id`, `event: message`, the JSON on one line (JSON.stringify never emits a newline).
 *
 * @param endpointUri - the legacy POST URI an `endpoint` event announces
 */
export function formatEvent(event: StoredEvent<unknown>, endpointUri: string): string {
  switch (event.opening) {
    case 'endpoint':
      return `event: endpoint\nid: ${event.id}\ndata: ${endpointUri}\n\n`;
    case 'priming':
      return `id: ${event.id}\ndata: \n\n`;
    default:
      return `id: ${event.id}\nevent: message\ndata: ${JSON.stringify(event.message)}\n\n`;
  }
}
