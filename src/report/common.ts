/**
 * Pieces the report renderers share: counting statuses, numbering trace steps, the replay flags of
 * a counterexample, and making untrusted strings (a candidate's answers end up in reasons and
 * steps) safe to print. Pure: no I/O.
 */
import type { Counterexample, PropertyResult, SuiteReport } from '../check-server/types.js';

/** How many properties passed, failed and were skipped. */
export interface StatusCounts {
  total: number;
  pass: number;
  fail: number;
  skip: number;
}

/** Counts the statuses of a report's properties. */
export function countStatuses(report: SuiteReport): StatusCounts {
  const counts: StatusCounts = { total: report.properties.length, pass: 0, fail: 0, skip: 0 };
  for (const p of report.properties) counts[p.status] += 1;
  return counts;
}

/** The candidate as one line: `name version at url` (version left out when unknown). */
export function candidateLine(candidate: SuiteReport['candidate']): string {
  return `${candidate.name}${candidate.version ? ` ${candidate.version}` : ''} at ${candidate.url}`;
}

/**
 * Control characters other than tab and newline, DEL, the C1 range, the Unicode line separators
 * and bidirectional controls (they would end a `//` comment or reorder a pasted snippet), BOM,
 * U+FFFE/U+FFFF and lone UTF-16 surrogates: invisible or invalid in the formats we write.
 */
const unprintable =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: it finds control characters on purpose, to escape them
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200E\u200F\u2028-\u202E\u2066-\u2069\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces each unprintable character (see above; CR included) with a visible `\uXXXX`. */
export function visible(text: string): string {
  return text.replace(unprintable, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** {@link visible}, with newlines and tabs as single spaces: for fields printed on one line. */
export function oneLine(text: string): string {
  return visible(text.replace(/\r\n|\r|\n|\t/g, ' '));
}

const numbered = /^\s*(\d+)[.)]\s+/;

/**
 * The steps as numbered lines, ` 1. ...`. Steps that already carry their number (the suite's
 * "numbered steps") keep it; others are numbered from 1. Continuation lines of a multi-line step
 * are kept, indented under it.
 */
export function numberSteps(steps: readonly string[]): string[] {
  const width = String(steps.length).length;
  const lines: string[] = [];
  steps.forEach((step, i) => {
    const [first = '', ...rest] = visible(step.replace(/\r\n?/g, '\n')).split('\n');
    const own = numbered.exec(first);
    const head = own ? `${own[1]!.padStart(width)}. ${first.slice(own[0].length)}` : `${String(i + 1).padStart(width)}. ${first}`;
    lines.push(head);
    for (const line of rest) lines.push(`${' '.repeat(width + 2)}${line.trimStart()}`);
  });
  return lines;
}

/** A counterexample found by fast-check (replayed with seed and path), not a deterministic scenario. */
export function isFastCheck(counterexample: Counterexample): boolean {
  return counterexample.seed !== -1 && !/^(coverage|witness|probe):/.test(counterexample.path);
}

/** The environment variable a replay reads a `--header` value from, e.g. `MCP_HEADER_AUTHORIZATION`: reports never hold the value. */
export function headerVariable(name: string): string {
  return `MCP_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** Quotes a word for a POSIX shell when it holds anything but plain characters: every replay line's quoting. */
export function shellQuote(value: string): string {
  return /^[\w.,:/@%+=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `--header` flags of a replay, each reading its value from the environment (a POSIX shell expands it): ` --header "authorization: $MCP_HEADER_AUTHORIZATION"`.
 * A name the shell would read inside double quotes (a token may hold `$`, `` ` ``, `'`) is quoted by {@link shellQuote}, the variable beside it.
 */
export function headerFlags(names: readonly string[]): string {
  return names
    .map((name) => {
      const variable = `$${headerVariable(name)}`;
      return /^[\w.-]+$/.test(name) ? ` --header "${name}: ${variable}"` : ` --header ${shellQuote(`${name}: `)}"${variable}"`;
    })
    .join('');
}

/**
 * The flags that replay a counterexample: `--seed S --path P` for fast-check; `--path P` for a
 * deterministic scenario (`coverage:N`, `coverage:N:K`, `witness:N`, `probe:NAME`; it has no seed).
 */
function replayFlags(counterexample: Counterexample): string {
  const path = shellQuote(oneLine(counterexample.path));
  return isFastCheck(counterexample) ? `--seed ${counterexample.seed} --path ${path}` : `--path ${path}`;
}

/** The command that replays a counterexample: `invocation` (when given) followed by {@link replayFlags}. */
export function replayCommand(counterexample: Counterexample, invocation?: string): string {
  const flags = replayFlags(counterexample);
  return invocation ? `${oneLine(invocation)} ${flags}` : flags;
}

/** What to say beside the replay command: empty for fast-check, a note for deterministic scenarios. */
export function replayNote(counterexample: Counterexample): string {
  if (isFastCheck(counterexample)) return '';
  // `coverage:N:K`: the model's shortest witness of a failure, a prefix of a scenario every check runs.
  const prefix = /^coverage:(\d+):(\d+)$/.exec(counterexample.path);
  if (prefix) return `(deterministic scenario: the first ${prefix[2]} steps of coverage:${prefix[1]}, run on every check)`;
  // `witness:N`: the model's shortest path N of a client presenting only cursors it holds, run when something failed.
  if (/^witness:\d+$/.test(counterexample.path))
    return `(deterministic scenario ${counterexample.path}: the model's path ${counterexample.path.slice('witness:'.length)} of a client presenting only cursors it holds)`;
  return `(deterministic scenario ${oneLine(counterexample.path)}, run on every check)`;
}

/** One line saying how to replay a counterexample: the command, then the note if any. */
export function replayLine(counterexample: Counterexample, invocation?: string): string {
  const note = replayNote(counterexample);
  return `${replayCommand(counterexample, invocation)}${note ? ` ${note}` : ''}`;
}

/** The failing properties that carry a counterexample, in report order. */
export function withCounterexamples(report: SuiteReport): Array<PropertyResult & { counterexample: Counterexample }> {
  return report.properties.filter((p): p is PropertyResult & { counterexample: Counterexample } => p.status === 'fail' && p.counterexample !== undefined);
}
