/**
 * Code mutant `standalone-live-lost`: the standalone GET stream as first opened is not wired to the
 * session's notifications: what the session sends on it goes to the log only, never to the
 * connection. A resume of the stream brings everything (the replay carries the logged
 * notifications, and a resumed stream then delivers live), so only a client that stays on the
 * stream it opened loses them, and nothing tells it.
 */
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';
import { isStandalone, wasResumed } from './standalone-streams.js';

export function standaloneLiveLost(): Mutation {
  return {
    name: 'standalone-live-lost',
    live: (session, stream) => !isStandalone(session, stream) || wasResumed(session, stream),
  };
}

export const mutant = codeMutant(
  'standalone-live-lost',
  'The standalone GET stream carries nothing live until it is resumed: notifications sent while it stays connected are only logged (a resume replays them)',
  ['standalone-delivers'],
  standaloneLiveLost,
);

export default mutant.start;
