/**
 * Baselines for CI (`check --baseline FILE`, `--write-baseline FILE`): the failures a project
 * already knows about, so that they do not fail its build while every new failure still does, and
 * a known failure that now passes is reported as fixed. The file is small JSON:
 *
 * ```json
 * { "baselineVersion": 1, "failures": [{ "id": "terminated-session-404", "level": "must" }] }
 * ```
 *
 * `id` is a property id; `level` is informative (what the property's level was when the baseline
 * was written). A bare id string is accepted for an entry too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { propertyIds, type PropertyId } from '../../model/property-ids.js';
import { failOnLevels, type Level } from '../../properties/definition.js';
import type { PropertyResult } from '../suite/types.js';
import type { JsonBaseline } from '../report/json.js';
import { UsageError } from './command.js';

/** The baseline file's shape. */
export interface BaselineFile {
  baselineVersion: 1;
  failures: Array<{ id: PropertyId; level?: Level }>;
}

/** The properties a baseline lists. @throws UsageError when the file is missing, not JSON, or names an unknown property. */
export function readBaseline(path: string): Set<PropertyId> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--baseline: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--baseline: ${path} is not JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const failures = (parsed as { failures?: unknown } | null)?.failures;
  if (!Array.isArray(failures)) throw new UsageError(`--baseline: ${path} has no "failures" array (expected {"baselineVersion": 1, "failures": [{"id": ...}]})`);
  const ids = new Set<PropertyId>();
  for (const entry of failures) {
    const id = typeof entry === 'string' ? entry : (entry as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !(propertyIds as readonly string[]).includes(id)) {
      throw new UsageError(`--baseline: ${path} lists ${JSON.stringify(entry)}, not a property id; known: ${propertyIds.join(', ')}`);
    }
    ids.add(id as PropertyId);
  }
  return ids;
}

/** The baseline of this check's failures, as the file's text. */
export function baselineText(properties: readonly PropertyResult[]): string {
  const file: BaselineFile = {
    baselineVersion: 1,
    failures: properties.filter((p) => p.status === 'fail').map((p) => ({ id: p.id, level: p.level })),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Writes this check's failures as a baseline. */
export function writeBaseline(path: string, properties: readonly PropertyResult[]): void {
  writeFileSync(path, baselineText(properties));
}

/** How strictly a level is required: must (and derived) 0, should 1, policy 2. */
const strictness = (level: Level): number => failOnLevels.indexOf(level === 'derived' ? 'must' : level);

/**
 * The failures a baseline excuses that it does not list: each follows from a known failure
 * (`followsFrom`: whether it shows depends on how its cause plays out in a run, so it is not new)
 * and is required no more strictly than that cause (a policy entry never excuses a MUST). Down a
 * chain, to the fixpoint; by id, with the known failure each follows from.
 */
function excusedByBaseline(listed: ReadonlySet<PropertyId>, properties: readonly PropertyResult[]): Map<PropertyId, PropertyId> {
  const failed = new Map(properties.filter((p) => p.status === 'fail').map((p) => [p.id, p]));
  const excused = new Map<PropertyId, PropertyId>();
  const known = (id: PropertyId) => failed.has(id) && (listed.has(id) || excused.has(id));
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
 * {@link excusedByBaseline}, as `known` (they do not fail the check); and the listed ones that now
 * pass (`fixed`). A listed property that was skipped or not judged is neither.
 */
export function applyBaseline(file: string, listed: ReadonlySet<PropertyId>, properties: readonly PropertyResult[]): JsonBaseline {
  const failed = properties.filter((p) => p.status === 'fail');
  const excused = excusedByBaseline(listed, properties);
  const known = new Set([...failed.filter((p) => listed.has(p.id)).map((p) => p.id), ...excused.keys()]);
  return {
    file,
    known: failed.filter((p) => known.has(p.id)).map((p) => p.id),
    fixed: properties.filter((p) => p.status === 'pass' && listed.has(p.id)).map((p) => p.id),
  };
}

/** The baseline's lines under the text report: a known failure the baseline does not list is named with what it follows from. */
export function baselineLines(baseline: JsonBaseline, listed: ReadonlySet<PropertyId>, properties: readonly PropertyResult[]): string[] {
  const followsFrom = (id: PropertyId) => properties.find((p) => p.id === id)?.followsFrom;
  const named = baseline.known.map((id) => (listed.has(id) ? id : `${id}, not listed: it follows from ${followsFrom(id)!}`));
  const lines = [`baseline ${baseline.file}: ${baseline.known.length} known failure(s) do not fail the check${named.length ? ` (${named.join('; ')})` : ''}`];
  for (const id of baseline.fixed) lines.push(`FIXED ${id}: listed in the baseline, passes now (remove it from the baseline)`);
  return lines;
}
