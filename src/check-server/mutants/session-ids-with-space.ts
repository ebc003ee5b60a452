/**
 * Code mutant `session-ids-with-space`: streamable HTTP session IDs are two random tokens joined by a
 * space (a server that formats its ID as "node id"), legacy SSE ones random UUIDs. As random as a
 * UUID, so nothing but the visible-ASCII MUST sees it: a space (0x20) is not a visible character.
 */
import { randomUUID } from 'node:crypto';
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

export function sessionIdsWithSpace(): Mutation {
  return {
    name: 'session-ids-with-space',
    sessionId: (transport) => (transport === 'streamable' ? randomUUID().replace('-', ' ') : randomUUID()),
    // Its own IDs are taken back at /mcp: the sessions work, only their IDs break the MUST.
    acceptsSessionId: (id) => /^[\x20-\x7e]+$/.test(id),
  };
}

export const mutant = codeMutant(
  'session-ids-with-space',
  'Streamable HTTP session IDs carry a space (two random tokens joined by one), legacy SSE ones are random UUIDs',
  ['session-ids-visible-ascii'],
  sessionIdsWithSpace,
);

export default mutant.start;
