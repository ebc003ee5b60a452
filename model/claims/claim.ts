/**
 * A seed's claim, judged by the model. The verdict is computed from what exploration finds;
 * tests pin the findings, and docs/claims.md prints them with their evidence.
 */
import type { Bounds } from '../bounds.js';
import type { Policy } from '../policy.js';
import type { WorldStep } from '../world-types.js';

export type Verdict = 'confirmed' | 'refined' | 'refuted';

/**
 * What a claim's verdict is computed from. `setting` is the seed's own setting: the knob values,
 * client and bounds the write-up describes or assumes (for seed 000, an on-receive client, unclean
 * drops and one frame undrained; for seed 003, its server's knobs). The model either contradicts
 * an assertion of the claim there, or only moves the claim's boundary outside it.
 */
export interface Grounds {
  /** A world the model reaches within the seed's own setting contradicts the claim. */
  contradicted: boolean;
  /**
   * Outside that setting the claim's boundary moves: the failure reaches further than claimed, a
   * stated condition or remedy is not needed, or the claim holds only under a condition the
   * seed's setting happened to meet.
   */
  boundaryMoved: boolean;
}

/** The one grading rule, applied to every claim. */
export function grade(grounds: Grounds): Verdict {
  return grounds.contradicted ? 'refuted' : grounds.boundaryMoved ? 'refined' : 'confirmed';
}

/** The grading rule in words, for docs/claims.md (rendered from the same cases `grade` decides). */
export const gradingRule: Record<Verdict, string> = {
  refuted:
    "the model reaches a world, within the seed's own setting (the knobs, client and bounds the write-up describes), that contradicts something the claim asserts.",
  refined:
    "nothing within the seed's own setting contradicts the claim, but outside it the boundary moves: the failure reaches further than claimed, a stated condition or remedy is not needed, or the claim holds only under a condition the seed's setting happened to meet.",
  confirmed: 'the claim holds within its setting and the explored lattice around it moves none of its boundaries.',
};

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
  /** This project's variant of a seed's claim, not a claim the seed makes: listed apart, outside the seeds' tally. */
  variant?: true;
}

export interface Claim {
  id: string;
  seed: '000' | '003';
  claim: string;
  test: string;
  variant?: true;
  judge(): ClaimJudgement;
}

/** A judgement of `claim`: what the model found, with no tables or traces unless given. */
export function judgementOf(
  claim: Pick<Claim, 'id' | 'seed' | 'claim' | 'test' | 'variant'>,
  found: Pick<ClaimJudgement, 'verdict' | 'finding'> & Partial<Pick<ClaimJudgement, 'tables' | 'traces'>>,
): ClaimJudgement {
  return {
    id: claim.id,
    seed: claim.seed,
    claim: claim.claim,
    test: claim.test,
    ...(claim.variant ? { variant: true } : {}),
    tables: [],
    traces: [],
    ...found,
  };
}

/** How many of the seeds' own claims (variants left out) got each verdict. */
export function tally(judged: readonly ClaimJudgement[]): Record<Verdict, number> {
  const own = judged.filter((j) => !j.variant);
  const count = (v: Verdict) => own.filter((j) => j.verdict === v).length;
  return { confirmed: count('confirmed'), refined: count('refined'), refuted: count('refuted') };
}

/** `yes`/`no` for table cells. */
export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}
