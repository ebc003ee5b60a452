/**
 * The Markdown report of `check-client --markdown FILE`: a summary table, then per failing client
 * property its reason, why it is required (the spec's words), the trace, a Mermaid
 * `sequenceDiagram` of the recorded history (participants App, Client, Proxy, Server), the replay
 * command, and a vitest test that replays the counterexample through `runClientCheck`: red while
 * the client has the bug, green once it is fixed. With a baseline, the table marks a known failure
 * `(known)` and a listed one that passes `(FIXED)`, and a Baseline section has its lines as the
 * text report prints them. Drawn from the history as data. Pure: no I/O.
 */
import type { AppEntry, ClientHistory, WireEntry } from '../../properties/client/history.js';
import { clientDefinitions } from '../../properties/client/definitions.js';
import type { ClientPropertyId } from '../../properties/client/ids.js';
import { baselineCellMark } from '../report/baseline.js';
import { adapterSpecifier, codeBlock, escapeMarkdown, escapeMermaid, whyRequired } from '../report/markdown.js';
import {
  clientBaselineLines,
  clientCheckError,
  clientReplayFlags,
  levelLabel,
  type ClientBaseline,
  entryParts,
  renderTrace,
  type ClientCounterexample,
  type ClientReport,
} from './report.js';

/** What a Mermaid line of one history entry is: who speaks to whom, or a note; undefined to leave it out. */
function diagramLine(entry: WireEntry | AppEntry): string | undefined {
  // What is said, without who says it or the exchange: the diagram's arrow names those.
  const text = () => escapeMermaid(entryParts(entry).what.trim());
  switch (entry.kind) {
    case 'call':
      return `App->>Client: ${text()}`;
    case 'notification':
    case 'settled':
      return `Client-->>App: ${text()}`;
    case 'request':
      return entry.origin === 'checker' ? `Proxy->>Server: ${text()}` : `Client->>Proxy: ${text()}`;
    case 'response':
      return `Proxy-->>Client: ${text()}`;
    case 'frame':
      return `Proxy-->>Client: ${text()}`;
    case 'fault':
      return `Note over Proxy: ${text()}`;
    case 'end':
      return entry.cut ? `Note over Client,Proxy: connection cut (#${entry.exchange})` : undefined;
  }
}

/** The Mermaid lines (without the fence) of a history's sequence diagram, the failing entry noted. */
export function clientSequenceDiagram(history: ClientHistory, at?: number): string {
  const lines = ['sequenceDiagram', '    participant App', '    participant Client', '    participant Proxy', '    participant Server'];
  for (const entry of [...history.wire, ...history.app].sort((a, b) => a.at - b.at)) {
    const line = diagramLine(entry);
    if (line) lines.push(`    ${line}`);
    if (entry.at === at) lines.push('    Note over App,Server: ✗ the property fails here');
  }
  return lines.join('\n');
}

/** How the checked client is reached again: an adapter module, or a built-in client by name. */
export interface ClientSource {
  /** The `--adapter MODULE` path as given. */
  adapter?: string;
  /** The directory the check ran in: an absolute `adapter` is imported relative to it. */
  cwd?: string;
  /** The `--client NAME` given. */
  client?: string;
}

/**
 * A vitest test file that replays one counterexample with `runClientCheck(factory, { seed, path,
 * only: [id] })` from `mcp-resume-spec` and expects the property to hold.
 */
function clientVitestReproduction(report: ClientReport, id: ClientPropertyId, c: ClientCounterexample, source: ClientSource): string {
  const q = (v: unknown) => JSON.stringify(v);
  const lines = [
    `// Reproduces ${id} against the client ${report.client.name.replace(/[\r\n]/g, ' ')}: ${c.source} scenario ${c.scenario}.`,
    "import { expect, test } from 'vitest';",
  ];
  let factory: string;
  if (source.adapter !== undefined) {
    const spec = adapterSpecifier(source.adapter, source.cwd);
    lines.push("import { runClientCheck } from 'mcp-resume-spec';");
    if (spec.startsWith('.')) lines.push('// The adapter path below is relative to the directory check-client ran in: adjust it to where you put this test.');
    lines.push(`import makeFactory from ${q(spec)};`);
    factory = 'await makeFactory()';
  } else {
    lines.push("import { builtInClientFactory, runClientCheck } from 'mcp-resume-spec';");
    factory = `await builtInClientFactory(${q(source.client ?? report.client.name)})`;
  }
  lines.push(
    '',
    `const ID = ${q(id)} as const;`,
    `const SEED = ${c.seed};`,
    `const PATH = ${q(c.path)};`,
    '',
    '// Fails until the client is fixed, then stays green as a regression test.',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a line of the generated test, whose template literal it is
    'test(`${ID} holds when ${PATH} is replayed`, async () => {',
    `  const report = await runClientCheck(${factory}, { name: ${q(report.client.name)}, timeoutMs: ${report.timeoutMs}, seed: SEED, path: PATH, only: [ID] });`,
    '  expect(report.scenarios[0]?.error).toBeUndefined();',
    '  const property = report.properties.find((p) => p.id === ID)!;',
    "  expect(property.status, property.reason).not.toBe('fail');",
    '}, 60_000);',
  );
  return `${lines.join('\n')}\n`;
}

const statusCell = { pass: 'PASS', fail: '**FAIL**', skip: 'SKIP' } as const;

/** The line saying why a check that ran could not be done (every scenario failed to run), if so. */
function checkError(report: ClientReport): string[] {
  const error = clientCheckError(report);
  return error !== undefined ? [`The check could not be done: ${escapeMarkdown(error)}`, ''] : [];
}

/**
 * The Markdown report of a check that could not be done before any scenario ran (exit status 2):
 * the title and why, as `check`'s.
 */
export function renderClientMarkdownError(client: ClientReport['client'], reason: string): string {
  return `# mcp-resume-spec check-client: ${escapeMarkdown(client.name)}\n\nThe check could not be done: ${escapeMarkdown(reason)}\n`;
}

/**
 * Renders a client report as Markdown.
 * @param invocation - the command that checked the client, without `--seed`/`--path`
 * @param baseline - what `--baseline FILE` made of the failures, when one was given
 */
export function renderClientMarkdown(report: ClientReport, invocation: string, source: ClientSource, baseline?: ClientBaseline): string {
  const failed = report.properties.filter((p) => p.status === 'fail');
  const out = [
    `# mcp-resume-spec check-client: ${escapeMarkdown(report.client.name)}`,
    '',
    ...checkError(report),
    `${report.scenarios.length} scenarios (request timeout ${report.timeoutMs} ms${report.interleavings ? `; ${report.interleavings.runs} fast-check interleavings, seed ${report.interleavings.seed}` : ''}): ${failed.length} of ${report.properties.length} client properties violated.`,
    '',
    '| status | level | property | scenarios | reason |',
    '| --- | --- | --- | ---: | --- |',
    ...report.properties.map(
      (p) =>
        `| ${statusCell[p.status]}${baselineCellMark(baseline, p.id)} | ${levelLabel(p.level)} | \`${p.id}\` | ${p.runs} | ${p.reason ? escapeMarkdown(p.reason) : ''} |`,
    ),
  ];
  if (baseline) out.push('', '## Baseline', '', ...clientBaselineLines(report, baseline).map((line) => `- ${escapeMarkdown(line)}`));
  const notes = report.abilities?.notes ?? [];
  if (notes.length > 0) out.push('', '## Notes', '', ...notes.map((note) => `- ${escapeMarkdown(note)}`));
  const broken = report.scenarios.filter((s) => s.error !== undefined);
  if (broken.length > 0) out.push('', '## Scenarios that could not run', '', ...broken.map((s) => `- \`${s.name}\`: ${escapeMarkdown(s.error!)}`));
  if (failed.length > 0) out.push('', '## Counterexamples');
  for (const p of failed) {
    const c = p.counterexample;
    const { id: _id, level, ...basis } = clientDefinitions[p.id];
    out.push('', `### \`${p.id}\``, '', `> ${escapeMarkdown(p.statement)}`);
    if (p.reason) out.push('', `**Why it fails:** ${escapeMarkdown(p.reason)}`);
    out.push('', ...whyRequired(level, basis));
    if (!c) continue;
    out.push(
      '',
      `Scenario \`${c.scenario}\` (${c.source}) over ${c.transport} against the ${escapeMarkdown(c.policy)} server; calls emitting ${c.calls.join(', ')} notification(s); faults: ${escapeMarkdown(c.faults.join('; ') || 'none')}.`,
      '',
      'Trace (the failing entry marked ✗):',
      '',
      codeBlock('text', renderTrace(c.history, c.at).join('\n')),
      '',
      codeBlock('mermaid', clientSequenceDiagram(c.history, c.at)),
      '',
      `Replay: \`${`${invocation} ${clientReplayFlags(c)}`.replace(/`/g, "'")}\``,
      '',
      'Reproduce in vitest:',
      '',
      codeBlock('ts', clientVitestReproduction(report, p.id, c, source)),
    );
  }
  return `${out.join('\n')}\n`;
}
