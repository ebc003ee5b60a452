/**
 * Code mutant `unknown-cursor-200`: the resume handler answers a cursor the session cannot place
 * with 200 and a quiet stream (the seed-003 answer, written as code rather than read from the
 * policy's `unknownCursor` knob, which stays `reject`). Refusals for another reason (a terminated
 * session, a foreign transport) keep their 404.
 */
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

export function unknownCursor200(): Mutation {
  return {
    name: 'unknown-cursor-200',
    // Under the session's own transport, an active session refuses a resume only for its cursor.
    resume: ({ session, event, reply }) =>
      reply.status === 404 && session.state === 'active' && event.transport === session.context.transport ? { status: 200, frames: [] } : reply,
  };
}

export const mutant = codeMutant(
  'unknown-cursor-200',
  'An unknown Last-Event-ID is answered 200 with a quiet stream, as code (the policy still says reject): on the wire the same as the unknown-cursor-empty-stream policy',
  ['no-silent-loss', 'unknown-cursor-rejected', 'at-most-once-effect', 'no-silent-stall'],
  unknownCursor200,
);

export default mutant.start;
