/** Policy mutant `unknown-cursor-empty-stream` (`model/policy.ts`), served by the reference server. */
import { policyMutant } from './mutant.js';

export const mutant = policyMutant(
  'unknown-cursor-empty-stream',
  'Policy: a Last-Event-ID the session cannot place is answered 200 with a quiet stream instead of 404 (a request waiting on that stream stalls; the retrying client then runs its call twice)',
  ['no-silent-loss', 'unknown-cursor-rejected', 'at-most-once-effect', 'no-silent-stall'],
);

export default mutant.start;
