/**
 * The model's shortest witnesses of a failure, tried on the candidate before a random run is
 * shrunk. Every prefix of a coverage scenario is the model's shortest path to some state (the
 * coverage paths are shortest paths, and a prefix of a shortest path is one too), so trying the
 * prefixes shortest first finds the shortest model path whose run on the candidate shows a
 * failure: a real run of the candidate, replayable as `coverage:N:K` (the first K steps of
 * coverage scenario N). Beside them, the model's shortest paths of a client that presents only
 * cursors it holds (`witness:N`): the coverage paths reach some states by a made-up cursor, after
 * which the judges count no loss or stall.
 */
import type { Bounds } from '../../model/bounds.js';
import type { PropertyId } from '../../model/property-ids.js';
import type { TraceStepData } from '../../model/trace-step.js';
import type { WorldStep } from '../../model/world-types.js';
import { stricter, type Level } from '../../properties/definition.js';
import type { Judgement } from '../../properties/judgement.js';
import { boundsOf, type CoveragePlan } from './coverage.js';
import { anchorStep, causeInRun, failureLevel, type ScenarioRecord } from './verdicts.js';

/** One prefix of a coverage scenario. */
export interface Witness {
  steps: WorldStep[];
  bounds: Bounds;
  /** `coverage:N:K`: the first K steps of coverage scenario N. */
  path: string;
}

/**
 * The distinct prefixes of the plan's scenarios, then the client-cursor paths none of them is
 * (see `clientCursorPaths`), shortest first (equal lengths in that order).
 */
export function witnessPool(plan: CoveragePlan, clientPaths: readonly WorldStep[][] = []): Witness[] {
  const seen = new Set<string>();
  const pool: Witness[] = [];
  for (const [i, path] of plan.paths.entries()) {
    let key = '';
    for (let k = 1; k <= path.length; k++) {
      key += `${JSON.stringify(path[k - 1])}>`;
      if (seen.has(key)) continue;
      seen.add(key);
      pool.push({ steps: path.slice(0, k), bounds: boundsOf(plan, i), path: `coverage:${i}:${k}` });
    }
  }
  for (const [i, path] of clientPaths.entries()) {
    const key = path.map((step) => `${JSON.stringify(step)}>`).join('');
    if (seen.has(key)) continue;
    seen.add(key);
    pool.push({ steps: [...path], bounds: plan.bounds, path: `witness:${i}` });
  }
  // A stable sort keeps plan order within a length.
  return pool.sort((a, b) => a.steps.length - b.steps.length);
}

/** Parses `witness:N` (path N of `clientCursorPaths`); undefined for any other path. */
export function witnessPathOf(path: string): number | undefined {
  const m = /^witness:(\d+)$/.exec(path);
  return m ? Number(m[1]) : undefined;
}

/** Parses `coverage:N:K` (or `coverage:N`, K undefined); undefined for any other path. */
export function coveragePathOf(path: string): { scenario: number; steps?: number } | undefined {
  const m = /^coverage:(\d+)(?::(\d+))?$/.exec(path);
  if (!m) return undefined;
  return m[2] === undefined ? { scenario: Number(m[1]) } : { scenario: Number(m[1]), steps: Number(m[2]) };
}

/**
 * Whether a run shows a group of failures as the run it replaces did: each at its level or a
 * graver one, and (for more than one) all resting on one step. This is what a shrink keeps.
 */
export function showsGroup(record: ScenarioRecord, judged: Map<PropertyId, Judgement>, levels: Map<PropertyId, Level>): boolean {
  const group = [...levels.keys()];
  if (group.some((id) => judged.get(id)!.status !== 'fail' || stricter(levels.get(id)!, failureLevel(id, judged.get(id)!)))) return false;
  const steps = new Set(group.map((id) => anchorStep(record, judged.get(id)!)));
  return group.length === 1 || (steps.size === 1 && !steps.has(undefined));
}

/** What a witness of one failure must show: the property failing at this level or a graver one, with this cause on its step. */
export interface WitnessTarget {
  level: Level;
  /** The property itself when it failed alone; else the failure of higher precedence on its step. */
  cause: PropertyId;
  /** Trace steps of the run the failure is reported with: a witness must be shorter. */
  length: number;
  /** Whether a world step is like the one the reported failure rests on: prefixes ending so are tried first. */
  like: (step: WorldStep) => boolean;
}

/**
 * A predicate for world steps like a trace step: the same kind (and, for a resume, the same
 * transport move). A failure rests on its anchor step, so a witness most likely ends in one like it.
 */
export function likeStep(anchor: TraceStepData | undefined): (step: WorldStep) => boolean {
  if (anchor === undefined) return () => false;
  return (step) => step.type.toLowerCase() === anchor.kind && (step.type !== 'RESUME' || (step.via === 'other') === (anchor.migrate === true));
}

/**
 * Whether a run shows `id`'s failure as its target says (see {@link WitnessTarget}), or as its own
 * cause: a run where it fails with nothing of higher precedence on its step shows it stands alone.
 */
export function shows(record: ScenarioRecord, judged: Map<PropertyId, Judgement>, id: PropertyId, target: WitnessTarget): boolean {
  const judgement = judged.get(id)!;
  if (judgement.status !== 'fail' || stricter(target.level, failureLevel(id, judgement))) return false;
  const cause = causeInRun(record, judged, id);
  return cause === target.cause || cause === id;
}
