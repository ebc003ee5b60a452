/** Policy mutant `default-capabilities` (`model/policy.ts`), served by the reference server. */
import { policyMutant } from './mutant.js';

export const mutant = policyMutant(
  'default-capabilities',
  "Policy: bridging and shared event IDs, and a cross-transport resume resets the session's capabilities to the default profile {}",
  ['no-cross-transport-resume', 'capabilities-honoured'],
);

export default mutant.start;
