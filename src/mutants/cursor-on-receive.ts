/** Policy mutant `cursor-on-receive` (`model/policy.ts`), served by the reference server. */
import { policyMutant } from './mutant.js';

export const mutant = policyMutant(
  'cursor-on-receive',
  "Policy: the client's cursor moves on receive (a client knob only); served, it is the reference server byte for byte",
  [],
);

export default mutant.start;
