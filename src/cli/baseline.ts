/**
 * Baselines for CI (`check --baseline FILE`, `--write-baseline FILE`, and the same for
 * `check-client`): the failures a project already knows about, so that they do not fail its build
 * while every new failure still does, and a known failure that now passes is reported as fixed.
 * The file is small JSON:
 *
 * ```json
 * { "baselineVersion": 1, "failures": [{ "id": "terminated-session-404", "level": "must" }] }
 * { "baselineVersion": 1, "kind": "client", "failures": [{ "id": "client-reinitializes-on-404", "level": "derived" }] }
 * ```
 *
 * `id` is a property id; `level` is informative (what the property's level was when the baseline
 * was written). A bare id string is accepted for an entry too. `kind` tells a client baseline from a
 * server one: a file without it is a server baseline, as `check` has always written them, and
 * `check-client` reads only files with `"kind": "client"`, so that each command refuses the other's
 * file with a reason instead of matching nothing. Rewritten after a run given the baseline, a
 * file keeps the listed properties the run did not judge. What a baseline makes of the results is
 * `src/report/baseline.ts`'s.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { propertyIds, type PropertyId } from '../../model/property-ids.js';
import { clientDefinitions } from '../../properties/client/definitions.js';
import { clientPropertyIds, type ClientPropertyId } from '../../properties/client/ids.js';
import { definitions } from '../../properties/definitions.js';
import { levels, stricter, type Level } from '../../properties/definition.js';
import { stillListed, type BaselinedResult, type BaselineOutcome } from '../report/baseline.js';
import { UsageError } from './command.js';

/** Whose failures a baseline lists: a server's (`check`) or a client's (`check-client`). */
export type BaselineKind = 'server' | 'client';

/** The baseline file's shape. */
export interface BaselineFile<Id extends string = PropertyId> {
  baselineVersion: 1;
  /** `client` for `check-client`'s; left out for `check`'s. */
  kind?: 'client';
  failures: Array<{ id: Id; level?: Level }>;
}

/** Per kind: its ids, what they are called, the command whose baseline it is. */
const kinds = {
  server: { ids: propertyIds as readonly string[], what: 'property id', command: 'check', levelOf: (id: string) => definitions[id as PropertyId].level },
  client: {
    ids: clientPropertyIds as readonly string[],
    what: 'client property id',
    command: 'check-client',
    levelOf: (id: string) => clientDefinitions[id as ClientPropertyId].level,
  },
} as const;

/** Property ids of earlier versions that a baseline may still list, and what became of each. */
const retiredPropertyIds: Readonly<Record<string, string>> = {
  'session-ids-secure': 'since split into session-ids-visible-ascii (MUST) and session-ids-unguessable (SHOULD)',
};

/** The kind other than `kind`. */
const other = (kind: BaselineKind): BaselineKind => (kind === 'server' ? 'client' : 'server');

/** Why a file of the other kind is refused, in one sentence. */
function wrongKind(path: string, kind: BaselineKind, found: string): string {
  const theirs = kinds[other(kind)].command;
  return `--baseline: ${path} is a ${other(kind)} baseline (${found}, as ${theirs} --write-baseline writes); ${kinds[kind].command} takes the baseline ${kinds[kind].command} --write-baseline writes`;
}

/** The ids a baseline of `kind` lists. @throws UsageError when the file is missing, not JSON, of the other kind, or names an unknown property. */
function readBaselineOf(path: string, kind: BaselineKind): Set<string> {
  return new Set(readEntries(path, kind).keys());
}

/** A baseline's entries: each id with the level it was written at, where the entry says one. */
function readEntries(path: string, kind: BaselineKind): Map<string, Level | undefined> {
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
    // One line: the parser's message may quote the file, newlines and all.
    throw new UsageError(`--baseline: ${path} is not JSON: ${(error as Error).message.replace(/\s+/g, ' ')}`);
  }
  const file = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { baselineVersion?: unknown; kind?: unknown; failures?: unknown };
  // The shape first: a file that is no baseline at all is said to be that, whatever its kind.
  if (!Array.isArray(file.failures))
    throw new UsageError(
      `--baseline: ${path} has no "failures" array (expected {"baselineVersion": 1, ${kind === 'client' ? '"kind": "client", ' : ''}"failures": [{"id": ...}]})`,
    );
  if (file.baselineVersion !== undefined && file.baselineVersion !== 1) {
    throw new UsageError(
      `--baseline: ${path} has "baselineVersion": ${JSON.stringify(file.baselineVersion)}; this version of mcp-resume-spec reads the number 1`,
    );
  }
  if (file.kind !== undefined && file.kind !== 'client')
    throw new UsageError(`--baseline: ${path} has "kind": ${JSON.stringify(file.kind)}; known: "client" (check-client's), or none (check's)`);
  const fileKind: BaselineKind | undefined = file.kind === 'client' ? 'client' : undefined;
  if (fileKind === 'client' && kind === 'server') throw new UsageError(wrongKind(path, kind, '"kind": "client"'));
  // Strict for the newer kind: an empty server baseline would otherwise pass for a client one.
  if (fileKind === undefined && kind === 'client') throw new UsageError(wrongKind(path, kind, 'no "kind": "client"'));
  const { ids: known, what } = kinds[kind];
  const ids = new Map<string, Level | undefined>();
  for (const entry of file.failures) {
    const id = typeof entry === 'string' ? entry : (entry as { id?: unknown } | null)?.id;
    if (kind === 'server' && typeof id === 'string' && Object.hasOwn(retiredPropertyIds, id)) {
      throw new UsageError(
        `--baseline: ${path} lists ${JSON.stringify(id)}, a property of earlier versions ${retiredPropertyIds[id]}: list whichever of them fails (check --write-baseline writes the current ids)`,
      );
    }
    if (typeof id !== 'string' || !known.includes(id)) {
      const theirs = typeof id === 'string' && kinds[other(kind)].ids.includes(id) ? `, a ${kinds[other(kind)].what} (${kinds[other(kind)].command}'s)` : '';
      throw new UsageError(`--baseline: ${path} lists ${JSON.stringify(entry)}${theirs}, not a ${what}; known: ${known.join(', ')}`);
    }
    const level = typeof entry === 'object' && entry !== null ? (entry as { level?: unknown }).level : undefined;
    ids.set(id, typeof level === 'string' && (levels as readonly string[]).includes(level) ? (level as Level) : undefined);
  }
  return ids;
}

/**
 * The listed properties that now fail graver than they were written at (a `no-silent-loss` listed at
 * `policy`, for notifications lost, that now loses a response: `should`): new failures, not known ones.
 */
export function graverThanListed(
  path: string,
  properties: readonly { id: PropertyId; status: string; level: Level }[],
): Array<{ id: PropertyId; listed: Level; now: Level }> {
  const entries = readEntries(path, 'server');
  return properties.flatMap((p) => {
    const listed = entries.get(p.id);
    return p.status === 'fail' && listed !== undefined && stricter(p.level, listed) ? [{ id: p.id, listed, now: p.level }] : [];
  });
}

/** The properties a server baseline lists. @throws UsageError when the file is missing, not JSON, a client baseline, or names an unknown property. */
export function readBaseline(path: string): Set<PropertyId> {
  return readBaselineOf(path, 'server') as Set<PropertyId>;
}

/** The client properties a client baseline lists. @throws UsageError when the file is missing, not JSON, a server baseline, or names an unknown client property. */
export function readClientBaseline(path: string): Set<ClientPropertyId> {
  return readBaselineOf(path, 'client') as Set<ClientPropertyId>;
}

/**
 * The baseline of a check's failures, as the file's text (`kind: "client"` for a client check's).
 * `kept`: listed properties of the baseline the check was given that it did not judge (skipped,
 * or not run: `--only`...); they stay listed, since nothing says they are fixed.
 */
function baselineText<Id extends string>(properties: readonly BaselinedResult<Id>[], kind: BaselineKind = 'server', kept: readonly Id[] = []): string {
  const failures: BaselineFile<Id>['failures'] = properties.filter((p) => p.status === 'fail').map((p) => ({ id: p.id, level: p.level }));
  for (const id of kept) if (!failures.some((f) => f.id === id)) failures.push({ id, level: kinds[kind].levelOf(id) });
  const file: BaselineFile<Id> = { baselineVersion: 1, ...(kind === 'client' ? { kind } : {}), failures };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Writes a check's failures as a baseline of `kind`, keeping `kept` (see {@link baselineText}). */
export function writeBaseline<Id extends string>(
  path: string,
  properties: readonly BaselinedResult<Id>[],
  kind: BaselineKind = 'server',
  kept: readonly Id[] = [],
): void {
  writeFileSync(path, baselineText(properties, kind, kept));
}

/**
 * The notes on stderr at the end of a check: failures below `--fail-on` that do not fail it, the
 * listed failures that pass, and the listed ones a rewritten baseline (`writtenTo`) keeps.
 */
export function endNotes(options: { belowThreshold: number; failOn: string; applied?: BaselineOutcome; writtenTo?: string }): string[] {
  const { belowThreshold, failOn, applied, writtenTo } = options;
  const notes: string[] = [];
  if (belowThreshold > 0) notes.push(`note: ${belowThreshold} failure(s) below --fail-on ${failOn} do not fail the check`);
  if (applied && applied.fixed.length > 0) {
    const how = applied.narrowedBy ? `pass in this run, narrowed by ${applied.narrowedBy.join(', ')}` : 'now pass';
    notes.push(`note: ${applied.fixed.length} baselined failure(s) ${how}: ${applied.fixed.join(', ')}`);
  }
  const kept = applied ? stillListed(applied) : [];
  if (writtenTo !== undefined && kept.length > 0) {
    notes.push(
      `note: ${writtenTo} keeps ${kept.length} listed failure(s) this run cannot clear (not judged, or passing only in a narrowed run): ${kept.join(', ')}`,
    );
  }
  return notes;
}
