/** Every seed claim the model judges, in the order docs/claims.md lists them. */
import type { Claim } from './claim.js';
import { claims000 } from './seed-000.js';
import { claims003 } from './seed-003.js';

export const claims: Claim[] = [...claims000, ...claims003];
export type { Claim, ClaimJudgement, FindingTable, FoundTrace, Verdict } from './claim.js';
