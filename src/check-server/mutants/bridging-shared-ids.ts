/** Policy mutant `bridging-shared-ids` (`model/policy.ts`), served by the reference server. */
import { policyMutant } from './mutant.js';

export const mutant = policyMutant(
  'bridging-shared-ids',
  "Policy: bridging plus one event-ID namespace for both transports, so a legacy session's cursor is placed and replayed at /mcp",
  ['no-cross-transport-resume'],
);

export default mutant.start;
