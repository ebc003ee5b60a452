/**
 * Event IDs. Under `perTransport` allocation the ID names the listener that minted it
 * (`sse:` or `http:`), so a resume handler can tell a cross-transport cursor at a glance; under
 * `shared` one namespace serves both listeners, as in seed 000. The session tag makes IDs of
 * different sessions distinct, so a cursor from one session never names an event of another.
 */
import type { EventIdAllocation } from './policy.js';
import type { Transport } from './transport.js';

const prefix: Record<Transport, string> = { sse: 'sse', streamable: 'http' };

/** The ID of the `n`th event a session sends. */
export function mintEventId(allocation: EventIdAllocation, tag: string, minted: Transport, n: number): string {
  return allocation === 'shared' ? `${tag}-e${n}` : `${prefix[minted]}:${tag}-e${n}`;
}
