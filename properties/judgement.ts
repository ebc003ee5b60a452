/**
 * What a property says about one recorded history: it held (`pass`), it was broken (`fail`),
 * or the history holds nothing it can judge (`skip`). A judge never passes what it did not see.
 */
import type { Level } from './definition.js';
import type { HistoryView } from './history-view.js';

export type Status = 'pass' | 'fail' | 'skip';

export interface Judgement {
  status: Status;
  /** For `fail` and `skip`: why, in one line; for `pass`: what was checked. */
  reason: string;
  /** History `seq`s of the entries that show a failure. */
  evidence?: number[];
  /** For `pass`: what was checked, as a count of things, so a suite can total it over its runs. */
  checked?: { count: number; what: string };
  /** For `fail`: the level this failure rests on, where the property grades it below its own (`PropertyBasis.weaker`). */
  level?: Level;
}

/** Judges one history. */
export type Judge = (view: HistoryView) => Judgement;

export const pass = (reason: string): Judgement => ({ status: 'pass', reason });
/** A pass over `count` things checked: the reason reads `${count} ${what}`. */
export const passCounted = (count: number, what: string): Judgement => ({ status: 'pass', reason: `${count} ${what}`, checked: { count, what } });
export const skip = (reason: string): Judgement => ({ status: 'skip', reason });
export const fail = (reason: string, evidence: number[] = []): Judgement => ({ status: 'fail', reason, evidence });
/** A failure the property grades at `level`, below its own (see `PropertyBasis.weaker`). */
export const failAt = (level: Level, reason: string, evidence: number[] = []): Judgement => ({ status: 'fail', reason, evidence, level });

/** 404 (and 410) tell a client to start a new session; other refusals do not. */
export function isSessionGone(status: number | undefined): boolean {
  return status === 404 || status === 410;
}
