/**
 * Code mutant `streamable-session-counter`: streamable HTTP session IDs are a counter under a
 * prefix (`session-1`, `session-2`, ...) while legacy SSE sessions get random UUIDs. Pooled, the
 * two transports' IDs looked random enough; judged apart, the counter shows.
 */
import { randomUUID } from 'node:crypto';
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

export function streamableSessionCounter(): Mutation {
  let n = 0;
  return { name: 'streamable-session-counter', sessionId: (transport) => (transport === 'streamable' ? `session-${++n}` : randomUUID()) };
}

export const mutant = codeMutant(
  'streamable-session-counter',
  'Streamable HTTP session IDs are a counter (session-1, session-2, ...), legacy SSE ones random UUIDs',
  ['session-ids-unguessable'],
  streamableSessionCounter,
);

export default mutant.start;
