/**
 * docs/candidates.md, from real runs: each real candidate checked over HTTP with a fixed seed,
 * each property's status, and for each failure the shortest trace and what a maintainer should
 * change. Findings are what the runs show; nothing here is written by hand but the advice per
 * property. IDs that differ run to run (sessions, events, labels) are shown as placeholders.
 */
import { propertyIds, type PropertyId } from '../../model/property-ids.js';
import { definitions } from '../../properties/definitions.js';
import type { RunningCandidate } from '../../src/check-server/candidates/adapter.js';
import { followsLine, oracleLines, traceLines } from '../../src/report/findings.js';
import { runSuite } from '../../src/check-server/run-suite.js';
import type { PropertyResult, SuiteReport } from '../../src/check-server/types.js';
import { fence, generatedBanner, table } from './markdown.js';

export interface Subject {
  /** The adapter module, for `mcp-resume-spec check --adapter`. */
  module: string;
  about: string;
  start: () => Promise<RunningCandidate>;
}

export const subjects: Subject[] = [
  {
    module: 'src/check-server/candidates/sdk.ts',
    about:
      'The official TypeScript SDK serving both transports from one process, routed as its own `sseAndStreamableHttpCompatibleServer` example does, with the example `InMemoryEventStore` for resumability.',
    start: async () => (await import('../../src/check-server/candidates/sdk.js')).default(),
  },
  {
    module: 'src/check-server/candidates/mcp-proxy.ts',
    about: "`mcp-proxy`'s `startHTTPServer` serving both transports (its own per-session event store), in front of an MCP server with the fixture tools.",
    start: async () => (await import('../../src/check-server/candidates/mcp-proxy.js')).default(),
  },
  {
    module: 'src/check-server/candidates/reference.ts',
    about: "This project's reference server: the model's session machine served over HTTP under the `reference` policy.",
    start: async () => (await import('../../src/check-server/candidates/reference.js')).default(),
  },
];

/** The fixed run every subject gets: the same seed and number of interleavings as CI. */
export const candidateRun = { runs: 50, seed: 20261130 };

/** What a maintainer should change when a property fails. */
const advice: Record<PropertyId, string> = {
  'no-silent-loss':
    "Replay every event of the cursor's stream that comes after the cursor, in the order it was sent, including events sent while no connection was attached. Order the event store by a per-session counter: a timestamp with a random tiebreak reorders (and, with a position-based replay, drops) events stored in one millisecond.",
  'no-cross-transport-resume':
    'Answer a session ID presented under the transport that did not issue it with 404 ("session not found for this transport"), so the client re-initializes instead of resuming.',
  'unknown-cursor-rejected':
    'Answer a Last-Event-ID that names no event of this session with 404, not 400 (the client is not told to re-initialize) and not 200 with a stream that will never carry anything.',
  'no-cross-stream-replay': 'Replay only the events of the stream the cursor belongs to; find that stream from the cursor (encode it in the event ID).',
  'no-cross-session-replay': 'Keep one event store per session, or tag event IDs with the session, so that a cursor never resolves in another session.',
  'event-ids-unique': 'Allocate event IDs from one counter per session (or globally), never per stream.',
  'order-preserved': 'Replay in send order, and never send an event twice under two IDs.',
  'capabilities-honoured': "Serve every request under the capabilities negotiated in that session's initialize; never re-derive them on a resume.",
  'at-most-once-effect':
    'Deliver every tool result a client is owed (see the loss and stall findings): a client whose result never comes retries, and the tool runs again.',
  'no-silent-stall': 'Never answer a resume with 200 and a stream that will carry nothing: refuse it with 404 so the client knows to re-initialize.',
  'session-ids-visible-ascii': 'Use only visible ASCII (0x21-0x7E) in session IDs.',
  'session-ids-unguessable': 'Generate session IDs from a cryptographically secure source, on every transport: no counter, no clock.',
  'terminated-session-404': 'After DELETE, answer every request with that session ID with 404.',
  'replay-has-no-gap':
    'Refuse with 404 a Last-Event-ID whose event (or any event after it on its stream) your log retention has dropped, as you refuse an unknown one; never replay what is left.',
  'standalone-delivers':
    'Write every notification meant for the standalone GET stream to the response that carries it, from the moment it is opened (not only once resumed), for as long as it stays connected.',
};

/** Replaces what differs run to run with placeholders. */
export function normalize(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(_\d+_[0-9a-z]+)?/g, (_m, event: string | undefined) =>
      event ? '<event>' : '<session>',
    )
    .replace(/\b[0-9a-f]{32}\b/g, '<session>')
    .replace(/\b(sse|http):[0-9a-f]{8}-e\d+\b/g, '<event>')
    .replace(/\b[0-9a-f]{6}-\d+-(c\d+)\b/g, '<label $1>')
    .replace(/\b[0-9a-f]{6}-(long|two-a|two-b|a)\b/g, '<label $1>')
    .replace(/within [\d.]+ ms/g, 'within the bound')
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:<port>');
}

/** Runs every subject once, in turn. */
export async function runSubjects(): Promise<Array<{ subject: Subject; report: SuiteReport }>> {
  // Side by side: a check mostly waits on quiet streams. Reports keep the subjects' order.
  return Promise.all(
    subjects.map(async (subject) => {
      const running = await subject.start();
      try {
        const report = await runSuite({ name: running.name, version: running.version, url: running.url }, candidateRun);
        return { subject, report };
      } finally {
        await running.stop();
      }
    }),
  );
}

/** A findings cell: the status, and for a failure that never broke alone, what it follows from. */
function findingCell(p: PropertyResult | undefined): string {
  if (!p) return 'n/a';
  return p.status === 'fail' && p.followsFrom ? `fail (follows from ${p.followsFrom})` : p.status;
}

/** The findings table: one row per property, one column per subject. */
export function findingsTable(results: Array<{ report: SuiteReport }>): { header: string[]; rows: string[][] } {
  return {
    header: ['property', ...results.map((r) => `${r.report.candidate.name} ${r.report.candidate.version ?? ''}`.trim())],
    rows: propertyIds.map((id) => [id, ...results.map((r) => findingCell(r.report.properties.find((p) => p.id === id)))]),
  };
}

/**
 * Whether two findings cells say the same: the same status, or a pass against a failure that
 * follows from a property `causeFails` (whether it shows depends on how its cause plays out in a
 * run, e.g. which message a race drops).
 */
export function sameFinding(a: string, b: string, causeFails: (id: string) => boolean): boolean {
  const status = (cell: string) => cell.split(' ')[0];
  const cause = (cell: string) => /^fail \(follows from ([\w-]+)\)$/.exec(cell)?.[1];
  const follows = (cell: string) => cause(cell) !== undefined && causeFails(cause(cell)!);
  return status(a) === status(b) || (a === 'pass' && follows(b)) || (b === 'pass' && follows(a));
}

/** The cells where a fresh findings table says otherwise than the committed one, as `property / candidate: committed -> fresh`. */
export function findingsChanged(committed: { header: string[]; rows: string[][] }, fresh: { header: string[]; rows: string[][] }): string[] {
  const changed: string[] = [];
  const fails = (table: { rows: string[][] }, id: string, c: number) => table.rows.find((row) => row[0] === id)?.[c]?.startsWith('fail') ?? false;
  for (const [r, row] of fresh.rows.entries()) {
    for (const [c, cell] of row.entries()) {
      const was = committed.rows[r]?.[c];
      // A consequence may come or go only while its cause fails in both tables.
      const causeFails = (id: string) => fails(committed, id, c) && fails(fresh, id, c);
      const same = c === 0 ? was === cell : was !== undefined && sameFinding(was, cell, causeFails);
      if (!same) changed.push(`${row[0]} / ${fresh.header[c]}: ${was ?? '(missing)'} -> ${cell}`);
    }
  }
  if (committed.rows.length !== fresh.rows.length) changed.push(`${committed.rows.length} rows -> ${fresh.rows.length}`);
  return changed;
}

/** Reads the findings table back out of a committed docs/candidates.md. */
export function readFindings(markdown: string): { header: string[]; rows: string[][] } {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| property |'));
  const cells = (l: string) =>
    l
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
  const rows: string[][] = [];
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(cells(lines[i]!));
  return { header: start >= 0 ? cells(lines[start]!) : [], rows };
}

/** The whole of docs/candidates.md, from fresh runs. */
export async function candidatesDoc(): Promise<string> {
  const results = await runSubjects();
  const findings = findingsTable(results);
  const out = [
    generatedBanner('scripts/docs.ts'),
    '',
    '# Real candidates, checked',
    '',
    `Each candidate below was started by its adapter and checked over real HTTP on 127.0.0.1 with \`mcp-resume-spec check --adapter MODULE --runs ${candidateRun.runs} --seed ${candidateRun.seed}\`: the model-coverage scenarios, the probes and ${candidateRun.runs} fast-check interleavings, judged property by property. The tests rerun these checks and fail when the table below no longer matches what the candidates do. A cell \`fail (follows from P)\` is a failure that never broke on its own: every run that broke it also broke P (or another property of higher precedence) at the same step. Whether it shows in a check depends on how P's fault plays out in its runs (which message a race drops), so the tests accept such a cell as \`pass\` in a rerun, and a \`pass\` as \`fail (follows from P)\`, while P fails in both; every other cell has to match.`,
    '',
    table(findings.header, findings.rows),
    '',
  ];
  for (const { subject, report } of results) {
    const failed = report.properties.filter((p) => p.status === 'fail');
    out.push(`## ${report.candidate.name} ${report.candidate.version ?? ''}`.trimEnd(), '', subject.about, '');
    const a = report.abilities;
    if (a) {
      out.push(
        `Transports: ${a.transports.join(', ')}. Fixture tools: ${
          Object.entries(a.fixtures)
            .filter(([, v]) => v)
            .map(([k]) => k)
            .join(', ') || 'none'
        }. ` +
          `Model coverage: ${report.coverage?.reached ?? 0} of ${report.coverage?.states ?? 0} states reached (a scenario counts up to where the candidate first answers what the model does not allow). ` +
          `Check it yourself, in a clone of this repository: \`npm run cli -- check --adapter ${subject.module}\`.`,
        '',
      );
    }
    if (failed.length === 0) {
      out.push('Every property holds.', '');
      continue;
    }
    for (const p of failed) {
      out.push(`### ${p.id}`, '', `*${definitions[p.id].statement}*`, '', `**Found:** ${normalize(p.reason ?? '')}`, '');
      const follows = followsLine(p);
      if (follows) out.push(`It ${follows}.`, '');
      const c = p.counterexample;
      if (c) {
        out.push(fence('text', traceLines(c.steps).map(normalize).join('\n')), '');
        const oracle = oracleLines(c);
        if (oracle.length) out.push(`Model oracle: ${oracle.map(normalize).join('; ')}`, '');
      }
      out.push(`**What to change:** ${advice[p.id]}`, '');
    }
  }
  return out.join('\n');
}
