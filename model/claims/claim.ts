/**
 * A seed's claim, judged by the model. The verdict is computed from what exploration finds;
 * tests pin the findings, and docs/claims.md prints them with their evidence.
 */
import type { Bounds } from '../bounds.js';
import type { Policy } from '../policy.js';
import type { WorldStep } from '../world-types.js';

export type Verdict = 'confirmed' | 'refined' | 'refuted';

/** A table of findings, e.g. one row per cell of a knob lattice. */
export interface FindingTable {
  header: string[];
  rows: string[][];
}

/** A trace the model found, replayable under its policy and bounds. */
export interface FoundTrace {
  title: string;
  policy: Policy;
  bounds: Bounds;
  path: WorldStep[];
}

export interface ClaimJudgement {
  id: string;
  seed: '000' | '003';
  /** The claim, in this project's words. */
  claim: string;
  verdict: Verdict;
  /** What the model found, in a few sentences. */
  finding: string;
  tables: FindingTable[];
  traces: FoundTrace[];
  /** The test that pins this judgement. */
  test: string;
}

export interface Claim {
  id: string;
  seed: '000' | '003';
  claim: string;
  test: string;
  judge(): ClaimJudgement;
}

/** A judgement of `claim`: what the model found, with no tables or traces unless given. */
export function judgementOf(
  claim: Pick<Claim, 'id' | 'seed' | 'claim' | 'test'>,
  found: Pick<ClaimJudgement, 'verdict' | 'finding'> & Partial<Pick<ClaimJudgement, 'tables' | 'traces'>>,
): ClaimJudgement {
  return { id: claim.id, seed: claim.seed, claim: claim.claim, test: claim.test, tables: [], traces: [], ...found };
}

/** `yes`/`no` for table cells. */
export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}
