/**
 * Code mutant `replay-skips-first`: an accepted resume's replay leaves out its first event (an
 * off-by-one past the cursor). When that event is a response, its request never gets it.
 */
import { served } from '../../reference/session.js';
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

export function replaySkipsFirst(): Mutation {
  return {
    name: 'replay-skips-first',
    resume: ({ reply }) => (served(reply) && reply.stream !== undefined && reply.frames.length > 0 ? { ...reply, frames: reply.frames.slice(1) } : reply),
  };
}

export const mutant = codeMutant(
  'replay-skips-first',
  'A replay leaves out the first event after the cursor (lost for good; a lost response leaves its request waiting, and the retrying client runs the call twice)',
  ['replay-has-no-gap', 'no-silent-loss', 'no-silent-stall', 'at-most-once-effect'],
  replaySkipsFirst,
);

export default mutant.start;
