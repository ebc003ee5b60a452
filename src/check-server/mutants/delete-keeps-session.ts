/**
 * Code mutant `delete-keeps-session`: DELETE is answered 200 and never reaches the session machine,
 * so the session, its streams and its event log stay usable.
 */
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

export function deleteKeepsSession(): Mutation {
  return { name: 'delete-keeps-session', bypassDelete: () => true };
}

export const mutant = codeMutant(
  'delete-keeps-session',
  'DELETE answers 200 but the session is not terminated: later requests with its ID are served',
  ['terminated-session-404'],
  deleteKeepsSession,
);

export default mutant.start;
