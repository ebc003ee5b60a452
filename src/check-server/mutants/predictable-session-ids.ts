/** Code mutant `predictable-session-ids`: session IDs are `session-1`, `session-2`, ... */
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

export function predictableSessionIds(): Mutation {
  let n = 0;
  return { name: 'predictable-session-ids', sessionId: () => `session-${++n}` };
}

export const mutant = codeMutant(
  'predictable-session-ids',
  'Session IDs are a counter (session-1, session-2, ...): visible ASCII, but guessable',
  ['session-ids-unguessable'],
  predictableSessionIds,
);

export default mutant.start;
