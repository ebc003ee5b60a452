/** Policy mutant `seed-000` (`model/policy.ts`), served by the reference server. */
import { policyMutant } from './mutant.js';

export const mutant = policyMutant(
  'seed-000',
  "Seed 000's server knobs: one event-ID namespace for both listeners and the legacy session bridged into /mcp, so a legacy cursor resumes at /mcp (its client knobs, cursor on receive and no dedup, are not served: as a server it equals bridging-shared-ids)",
  ['no-cross-transport-resume'],
);

export default mutant.start;
