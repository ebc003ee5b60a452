/** Every seed claim the model judges, in the order docs/claims.md lists them. */
import { bridgingAlone } from './bridging.js';
import type { Claim } from './claim.js';
import { claims000 } from './seed-000.js';
import { mitigations000 } from './seed-000-mitigations.js';
import { claims003 } from './seed-003.js';
import { advice003 } from './seed-003-advice.js';

export const claims: Claim[] = [...claims000, ...mitigations000, ...claims003, ...advice003, bridgingAlone];
export type { Claim, ClaimJudgement, FindingTable, FoundTrace, Grounds, Verdict } from './claim.js';
export { grade, gradingRule, tally } from './claim.js';

let judged: ClaimJudgementOf[] | undefined;
type ClaimJudgementOf = ReturnType<Claim['judge']>;

/** Every claim judged once per process (docs/claims.md and docs/spec-proposals.md read the same judgements). */
export function judgedClaims(): ClaimJudgementOf[] {
  judged ??= claims.map((c) => c.judge());
  return judged;
}
