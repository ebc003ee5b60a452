/** Policy mutant `seed-003` (`model/policy.ts`), served by the reference server. */
import { policyMutant } from './mutant.js';

export const mutant = policyMutant(
  'seed-003',
  "Seed 003's server knobs: bridging, an unknown (or other-transport) cursor answered 200 with a quiet stream, and capabilities reset to a default profile on a cross-transport resume",
  ['no-silent-loss', 'no-cross-transport-resume', 'unknown-cursor-rejected', 'capabilities-honoured', 'at-most-once-effect', 'no-silent-stall'],
);

export default mutant.start;
