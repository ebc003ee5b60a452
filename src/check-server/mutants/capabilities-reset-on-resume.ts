/**
 * Code mutant `capabilities-reset-on-resume`: once a session has accepted any resume (a replay or a
 * quiet stream, under either transport, its own included), its requests are served under the
 * default capability profile `{}` instead of the capabilities negotiated in `initialize`.
 */
import { defaultCapabilityProfile } from '../../../model/session-types.js';
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

export function capabilitiesResetOnResume(): Mutation {
  return {
    name: 'capabilities-reset-on-resume',
    capabilities: ({ context }) => (context.resumes.some((r) => r.outcome !== 'rejected') ? defaultCapabilityProfile : context.capabilities),
  };
}

export const mutant = codeMutant(
  'capabilities-reset-on-resume',
  'Any accepted resume, same transport included, resets the capabilities requests are served under to the default profile {}',
  ['capabilities-honoured'],
  capabilitiesResetOnResume,
);

export default mutant.start;
