/**
 * Code mutant `resumed-standalone-silent`: the standalone GET stream opens without a priming event
 * (as SDK 1.32.2's does), and once resumed it carries its replay and then nothing more: later
 * notifications to the session go to the log only, so a client that stays on the resumed stream
 * never gets them. A stream never resumed delivers as the reference does; so does every POST stream.
 *
 * A resume with the priming event's ID is what a client would otherwise make, so without the
 * priming event the first cursor on that stream is an unsolicited notification's: only a scenario
 * that receives one, drops, resumes and then has the server send more shows the silence.
 */
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';
import { isStandalone, wasResumed } from './standalone-streams.js';

export function resumedStandaloneSilent(): Mutation {
  return {
    name: 'resumed-standalone-silent',
    priming: (kind) => kind !== 'standalone',
    live: (session, stream) => !(isStandalone(session, stream) && wasResumed(session, stream)),
  };
}

export const mutant = codeMutant(
  'resumed-standalone-silent',
  'The standalone GET stream sends no priming event, and once resumed carries its replay and nothing after: later notifications to the session are never written to it',
  ['no-silent-loss'],
  resumedStandaloneSilent,
);

export default mutant.start;
