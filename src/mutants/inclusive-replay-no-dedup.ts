/** Policy mutant `inclusive-replay-no-dedup` (`model/policy.ts`), served by the reference server. */
import { policyMutant } from './mutant.js';

export const mutant = policyMutant(
  'inclusive-replay-no-dedup',
  'Policy: replay from the cursor inclusive (server) and no client dedup (client); served, only the inclusive replay reaches the wire, which a deduplicating client absorbs: it breaks order-preserved only for a client without dedup',
  [],
);

export default mutant.start;
