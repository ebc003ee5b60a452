/**
 * What a baseline (`check --baseline FILE`, `check-client --baseline FILE`) makes of a check's
 * results, and the words every report says it in: which failures it lists (known: they do not fail
 * the check), which listed ones now pass (fixed), and which listed ones the run did not judge
 * (unjudged). Shared by the server and the client reports, so that both say it alike. Pure:
 * reading and writing the file is `src/cli/baseline.ts`'s.
 */
import { failOnLevels, type Level } from '../../properties/definition.js';
import type { Status } from '../../properties/judgement.js';

/** What a baseline made of a check's failures (the JSON reports' `baseline`). */
export interface BaselineOutcome<Id extends string = string> {
  /** The baseline file, as given. */
  file: string;
  /** Failures the baseline covers: reported, but they do not fail the check. */
  known: Id[];
  /** Listed failures that now pass. */
  fixed: Id[];
  /** Listed properties this run judged neither way (skipped, or not run): neither known nor fixed, and kept in a baseline it rewrites. */
  unjudged: Id[];
  /** The flags that made this run check less than a default one (`--only`, `--scenarios`...), if any: a listed failure that passes in it may still fail in a full check. */
  narrowedBy?: string[];
}

/** A property's result as far as a baseline reads it; `followsFrom` only server properties have. */
export interface BaselinedResult<Id extends string> {
  id: Id;
  status: Status;
  level: Level;
  followsFrom?: Id;
}

/** How strictly a level is required: must (and derived) 0, should 1, policy 2. */
const strictness = (level: Level): number => failOnLevels.indexOf(level === 'derived' ? 'must' : level);

/**
 * The failures a baseline excuses that it does not list: each follows from a known failure
 * (`followsFrom`: whether it shows depends on how its cause plays out in a run, so it is not new)
 * and is required no more strictly than that cause (a policy entry never excuses a MUST). Down a
 * chain, to the fixpoint; by id, with the known failure each follows from.
 */
function excusedByBaseline<Id extends string>(listed: ReadonlySet<Id>, properties: readonly BaselinedResult<Id>[]): Map<Id, Id> {
  const failed = new Map(properties.filter((p) => p.status === 'fail').map((p) => [p.id, p]));
  const excused = new Map<Id, Id>();
  const known = (id: Id) => failed.has(id) && (listed.has(id) || excused.has(id));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of failed.values()) {
      const cause = p.followsFrom === undefined ? undefined : failed.get(p.followsFrom);
      if (known(p.id) || cause === undefined || !known(cause.id) || strictness(p.level) < strictness(cause.level)) continue;
      excused.set(p.id, cause.id);
      grew = true;
    }
  }
  return excused;
}

/**
 * What a baseline makes of a check's results: the listed failures that failed again, and those
 * {@link excusedByBaseline}, as `known` (they do not fail the check); the listed ones that now
 * pass (`fixed`); and the listed ones this run did not judge (`unjudged`: skipped, or not run).
 * `narrowedBy`: the flags that made the run check less than a default one.
 */
export function applyBaseline<Id extends string>(
  file: string,
  listed: ReadonlySet<Id>,
  properties: readonly BaselinedResult<Id>[],
  narrowedBy: readonly string[] = [],
): BaselineOutcome<Id> {
  const failed = properties.filter((p) => p.status === 'fail');
  const excused = excusedByBaseline(listed, properties);
  const known = new Set([...failed.filter((p) => listed.has(p.id)).map((p) => p.id), ...excused.keys()]);
  const judged = new Set(properties.filter((p) => p.status === 'pass' || p.status === 'fail').map((p) => p.id));
  return {
    file,
    known: failed.filter((p) => known.has(p.id)).map((p) => p.id),
    fixed: properties.filter((p) => p.status === 'pass' && listed.has(p.id)).map((p) => p.id),
    unjudged: [...listed].filter((id) => !judged.has(id)),
    ...(narrowedBy.length > 0 ? { narrowedBy: [...narrowedBy] } : {}),
  };
}

/** The line that says a listed failure passes: in a run narrowed by some flags, it may still fail in a full check. */
function fixedLine(id: string, narrowedBy: readonly string[] = []): string {
  if (narrowedBy.length === 0) return `FIXED ${id}: listed in the baseline, passes now (remove it from the baseline)`;
  const those = narrowedBy.length === 1 ? 'that flag' : 'those flags';
  return `FIXED ${id}: listed in the baseline, passes in this run, narrowed by ${narrowedBy.join(', ')} (remove it from the baseline once a check without ${those} passes it too)`;
}

/**
 * The listed properties a baseline rewritten after this run keeps: those it did not judge, and,
 * in a narrowed run, those that passed only there (a full check may still find them).
 */
export function stillListed<Id extends string>(baseline: BaselineOutcome<Id>): Id[] {
  return [...baseline.unjudged, ...(baseline.narrowedBy ? baseline.fixed : [])];
}

/**
 * The baseline's lines under a report: how many known failures do not fail the check (a known
 * failure the baseline does not list is named with what it follows from), the listed ones the run
 * did not judge, then a {@link fixedLine} per listed failure that now passes.
 */
export function baselineLines<Id extends string>(baseline: BaselineOutcome<Id>, listed: ReadonlySet<Id>, properties: readonly BaselinedResult<Id>[]): string[] {
  const followsFrom = (id: Id) => properties.find((p) => p.id === id)?.followsFrom;
  const named = baseline.known.map((id) => (listed.has(id) ? id : `${id}, not listed: it follows from ${followsFrom(id)!}`));
  const lines = [`baseline ${baseline.file}: ${baseline.known.length} known failure(s) do not fail the check${named.length ? ` (${named.join('; ')})` : ''}`];
  if (baseline.unjudged.length > 0) lines.push(`listed in the baseline, not judged in this run (neither known nor fixed): ${baseline.unjudged.join(', ')}`);
  for (const id of baseline.fixed) lines.push(fixedLine(id, baseline.narrowedBy));
  return lines;
}

/** What a baseline says of one property: `known` (a failure it covers), `fixed` (listed, passes now), or undefined. */
export function baselineMark<Id extends string>(baseline: BaselineOutcome<Id> | undefined, id: Id): 'known' | 'fixed' | undefined {
  if (baseline?.known.includes(id)) return 'known';
  return baseline?.fixed.includes(id) ? 'fixed' : undefined;
}

/** The line under one property's result in a per-property report (a JUnit test case): what the baseline says of it, or undefined. */
export function baselineNote<Id extends string>(baseline: BaselineOutcome<Id> | undefined, id: Id): string | undefined {
  const mark = baselineMark(baseline, id);
  if (mark === 'known') return `known failure: covered by the baseline ${baseline!.file}, it does not fail the check`;
  return mark === 'fixed' ? fixedLine(id, baseline!.narrowedBy) : undefined;
}

/** A baseline as the per-property reports take it: what it made of the failures, and the lines that say so. */
export interface ReportBaseline<Id extends string = string> {
  outcome: BaselineOutcome<Id>;
  /** {@link baselineLines}' lines for this check. */
  lines: readonly string[];
}

/** The mark a Markdown summary table puts after a property's status: ` (known)`, ` (FIXED)`, or nothing. */
export function baselineCellMark<Id extends string>(baseline: BaselineOutcome<Id> | undefined, id: Id): string {
  const mark = baselineMark(baseline, id);
  return mark === 'known' ? ' (known)' : mark === 'fixed' ? ' (FIXED)' : '';
}

/** The JSON reports' `baseline`: a copy of the outcome, `narrowedBy` only when the run was narrowed. */
export function baselineJson<Id extends string>(baseline: BaselineOutcome<Id>): BaselineOutcome<Id> {
  const { file, known, fixed, unjudged, narrowedBy } = baseline;
  return { file, known: [...known], fixed: [...fixed], unjudged: [...unjudged], ...(narrowedBy ? { narrowedBy: [...narrowedBy] } : {}) };
}
