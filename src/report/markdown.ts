/**
 * The Markdown report: a summary table, then for each counterexample its trace, a Mermaid
 * `sequenceDiagram` of the steps (participants Client, Wire, Server), how to replay it from the
 * CLI, and a ready-to-paste vitest test that reproduces it through the suite's replay entry point.
 *
 * The diagram is drawn from the steps as data (`model/trace-step.ts`), never from their sentences:
 *
 * | step kind | drawn as |
 * |---|---|
 * | initialize, call, ping, resume, delete (the client asks) | `Client->>Server: action`, then `Server-->>Client: answer` if there is one |
 * | send | `Server-->>Wire`; a `Note over Server` when the event went to the log only |
 * | receive | `Wire-->>Client` |
 * | drain | `Note over Client` |
 * | drop | `Note over Wire` |
 * | timeout | `Note over Client` (and `Client->>Server: retry CALL` when the client retries) |
 *
 * A step where the candidate left the model (its `expected` is set) draws the candidate's answer,
 * then `Note right of Server: model expects X`.
 *
 * Message text is escaped with Mermaid's entity codes (`#35;` for `#`, `#59;` for `;`, `#60;` for
 * `<`, ...); control characters become visible `\uXXXX`. Pure: no I/O.
 */
import { isAbsolute, relative } from 'node:path';
import type { PropertyId } from '../../model/property-ids.js';
import type { Level } from '../../properties/definition.js';
import type { ResultBasis } from '../../properties/definitions.js';
import type { Endpoint } from '../../properties/history.js';
import type { TraceStepData } from '../../model/trace-step.js';
import { answerText, stepAction } from '../../model/trace-text.js';
import type { ClientSettings, Counterexample, SuiteReport } from '../check-server/types.js';
import {
  candidateLine,
  countStatuses,
  isFastCheck,
  numberSteps,
  oneLine,
  replayCommand,
  replayNote,
  shellQuote,
  headerFlags,
  headerVariable,
  visible,
  withCounterexamples,
} from './common.js';
import { baselineCellMark, type ReportBaseline } from './baseline.js';
import { gradedLine, levelMeaning, levelTag, newestQuotes } from './basis.js';
import { causeLine, divergenceLine, followsLine, legendOf, oracleLines, rootCauses, traceLines } from './findings.js';

// ---------------------------------------------------------------------------------------------
// Escaping

const markdownEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\\': '\\\\',
  '`': '\\`',
  '*': '\\*',
  _: '\\_',
  '[': '\\[',
  ']': '\\]',
  '|': '\\|',
  '~': '\\~',
  '#': '\\#',
};

/**
 * Makes untrusted text safe as inline Markdown (a paragraph or a table cell): one line, HTML
 * special characters as entities, Markdown punctuation backslash-escaped.
 */
export function escapeMarkdown(text: string): string {
  return oneLine(text).replace(/[&<>"\\`*_[\]|~#]/g, (c) => markdownEscapes[c]!);
}

/** A fence longer than any run of backticks in `body`, so the body cannot close it. */
function fence(body: string): string {
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A fenced code block; the body is shown verbatim (control characters made visible). */
export function codeBlock(language: string, body: string): string {
  const text = visible(body.replace(/\r\n?/g, '\n')).replace(/\n+$/, '');
  const f = fence(text);
  return `${f}${language}\n${text}\n${f}`;
}

/** An inline code span holding `text` verbatim on one line. */
function codeSpan(text: string): string {
  const body = oneLine(text);
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${body}${pad}${ticks}`;
}

const mermaidCodes: Record<string, string> = {
  '#': '#35;',
  ';': '#59;',
  '<': '#60;',
  '>': '#62;',
  '"': '#34;',
  '&': '#38;',
  '`': '#96;',
  '%': '#37;',
  '\\': '#92;',
};

/**
 * Makes text safe as a Mermaid message or note: one line, and the characters Mermaid's
 * sequence-diagram grammar or its HTML rendering chokes on (`#` `;` `<` `>` `"` `&` backtick `%`
 * backslash) as Mermaid entity codes (`#59;` ...), which it renders as the characters themselves.
 */
export function escapeMermaid(text: string): string {
  const escaped = oneLine(text)
    .replace(/[#;<>"&`%\\]/g, (c) => mermaidCodes[c]!)
    .trim();
  return escaped === '' ? ' ' : escaped;
}

// ---------------------------------------------------------------------------------------------
// Mermaid

/**
 * The Mermaid lines (without the fence) of a `sequenceDiagram` for a counterexample's steps.
 *
 * @param steps - the counterexample's steps, as data
 * @returns `sequenceDiagram`, the three participants, then one or two lines per step
 */
export function sequenceDiagram(steps: readonly TraceStepData[]): string {
  const lines = ['sequenceDiagram', '    participant Client', '    participant Wire', '    participant Server'];
  const add = (line: string): void => {
    lines.push(`    ${line}`);
  };
  for (const step of steps) {
    const label = (text: string): string => escapeMermaid(`(${step.index}) ${text}`);
    const action = stepAction(step);
    const answer = answerText(step, step.answer);
    const withAnswer = answer ? `${action} → ${answer}` : action;
    switch (step.kind) {
      case 'initialize':
      case 'call':
      case 'ping':
      case 'resume':
      case 'delete':
        add(`Client->>Server: ${label(action)}`);
        if (answer) add(`Server-->>Client: ${label(answer)}`);
        break;
      case 'send':
        add(step.answer.logOnly ? `Note over Server: ${label(withAnswer)}` : `Server-->>Wire: ${label(withAnswer)}`);
        break;
      case 'receive':
        add(`Wire-->>Client: ${label(withAnswer)}`);
        break;
      case 'drain':
        add(`Note over Client: ${label(withAnswer)}`);
        break;
      case 'expire':
      case 'trim':
        add(`Note over Server: ${label(withAnswer)}`);
        break;
      case 'drop':
        add(`Note over Wire: ${label(withAnswer)}`);
        break;
      case 'timeout':
        add(`Note over Client: ${label(withAnswer)}`);
        if (step.retries) add(`Client->>Server: ${label(`retry ${step.call ?? step.request ?? ''}`.trim())}`);
        break;
    }
    if (step.expected !== undefined) add(`Note right of Server: ${label(`model expects ${answerText(step, step.expected) || 'nothing'}`)}`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// vitest reproduction

/** How the candidate the user checked is reached again, for replay lines and vitest snippets. */
export interface CandidateSource {
  /** The `--adapter MODULE` path as given on the command line. */
  adapter?: string;
  /** The directory the check ran in: an absolute `adapter` under it is imported relative to it (one elsewhere as given). */
  cwd?: string;
  /** The `--url` the candidate was checked at (used when there is no `adapter`; default: the report's url). */
  url?: string;
  /** Endpoint paths given by `--mcp`/`--sse`/`--messages`, if not the defaults. */
  paths?: Partial<Record<Endpoint, string>>;
  /** Names of the headers given with `--header` (their values, a token say, are never written to a report). */
  headerNames?: string[];
  /** The checking client's settings where the check changed them (`--client-cursor`, `--client-dedup`): a replay needs them too. */
  client?: Partial<ClientSettings>;
}

/**
 * The adapter's import specifier in a vitest reproduction, relative to the directory the check
 * ran in (as `--adapter` is read), so that a report kept as a CI artifact names no machine's
 * folders. Shared by the server and client reports.
 */
export function adapterSpecifier(adapter: string, cwd: string | undefined): string {
  let spec = adapter;
  if (isAbsolute(spec) && cwd !== undefined && isAbsolute(cwd)) {
    // Only a module under that directory: one elsewhere is named as given.
    const under = relative(cwd, spec);
    if (under !== '' && !under.startsWith('..') && !isAbsolute(under)) spec = under;
  }
  spec = spec.replace(/\\/g, '/');
  // Another drive stays absolute; a bare relative path would be read as a package name.
  if (!spec.startsWith('/') && !/^[A-Za-z]:\//.test(spec) && !spec.startsWith('./') && !spec.startsWith('../')) spec = `./${spec}`;
  return spec;
}

/**
 * A vitest test file that reproduces one counterexample: it starts the candidate (imports the
 * adapter module and calls its default export, or targets the URL), replays the counterexample with
 * `runSuite(candidate, { seed, path, only: [id] })` from `mcp-resume-spec` (the package's library API),
 * and expects the property to hold: red while the bug is there, green once it is fixed, so it can
 * stay in the candidate's suite as a regression test. Deterministic counterexamples (seed -1,
 * `coverage:N` / `probe:NAME`) replay through the same call.
 *
 * @param report - the report the counterexample comes from (for the candidate's name and url)
 * @param id - the failing property
 * @param counterexample - its counterexample
 * @param source - how the candidate was started
 * @returns TypeScript source, ending with a newline
 */
export function vitestReproduction(report: SuiteReport, id: PropertyId, counterexample: Counterexample, source: CandidateSource = {}): string {
  const q = (value: unknown): string => JSON.stringify(value);
  const paths = source.paths && Object.keys(source.paths).length > 0 ? `, paths: ${q(source.paths)}` : '';
  const headerNames = source.headerNames ?? [];
  const lines = [
    `// Reproduces ${id} against ${oneLine(report.candidate.name)}: ${isFastCheck(counterexample) ? 'fast-check' : 'deterministic'} counterexample.`,
    source.adapter !== undefined ? "import { afterAll, beforeAll, expect, test } from 'vitest';" : "import { expect, test } from 'vitest';",
    "import { runSuite, type CandidateTarget } from 'mcp-resume-spec';",
  ];
  if (source.adapter !== undefined) {
    const specifier = adapterSpecifier(source.adapter, source.cwd);
    if (specifier.startsWith('.')) lines.push('// The adapter path below is relative to the directory the check ran in: adjust it to where you put this test.');
    lines.push(`import startCandidate from ${q(specifier)};`);
  }
  lines.push('', `const ID = ${q(id)} as const;`, `const SEED = ${counterexample.seed};`, `const PATH = ${q(counterexample.path)};`, '');
  if (headerNames.length > 0) {
    lines.push(
      '// The check sent these headers (--header); their values are not in the report: set them in the environment.',
      `const headers = { ${headerNames.map((name) => `${q(name)}: process.env.${headerVariable(name)} ?? ''`).join(', ')} };`,
      '',
    );
  }
  if (source.adapter !== undefined) {
    lines.push(
      'let running: Awaited<ReturnType<typeof startCandidate>> | undefined;',
      'let candidate: CandidateTarget;',
      '',
      'beforeAll(async () => {',
      '  running = await startCandidate();',
      `  candidate = { name: running.name ?? ${q(report.candidate.name)}, version: running.version, url: running.url${paths}, headers: { ...running.headers${headerNames.length > 0 ? ', ...headers' : ''} } };`,
      '}, 30_000);',
      '',
      'afterAll(async () => {',
      '  await running?.stop();',
      '});',
    );
  } else {
    const url = source.url ?? report.candidate.url;
    const version = report.candidate.version !== undefined ? `, version: ${q(report.candidate.version)}` : '';
    lines.push(
      '// The server this check ran against, at the URL it had: start it there (or change the URL) before running this test.',
      `const candidate: CandidateTarget = { name: ${q(report.candidate.name)}${version}, url: ${q(url)}${paths}${headerNames.length > 0 ? ', headers' : ''} };`,
    );
  }
  lines.push(
    '',
    '// Fails until the bug is fixed, then stays green as a regression test.',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a line of the generated test, whose template literal it is
    'test(`${ID} holds when seed ${SEED}, path ${PATH} is replayed`, async () => {',
    `  const result = await runSuite(candidate, { seed: SEED, path: PATH, only: [ID]${source.client ? `, client: ${q(source.client)}` : ''} });`,
    '  const property = result.properties.find(p => p.id === ID)!;',
    "  expect(property.status, property.reason).toBe('pass');",
    '}, 120_000);',
  );
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// The document

export interface MarkdownReportOptions extends CandidateSource {
  /**
   * The command that checked the candidate, without `--seed`/`--path`; default built from
   * `adapter` or `url`: `npx mcp-resume-spec check --adapter MODULE` / `--url URL`.
   */
  invocation?: string;
  /** What `--baseline FILE` made of the failures, when one was given: marked in the table, its lines in a section of their own. */
  baseline?: ReportBaseline<PropertyId>;
}

function defaultInvocation(report: SuiteReport, options: MarkdownReportOptions): string {
  if (options.invocation !== undefined) return options.invocation;
  const target = options.adapter !== undefined ? `--adapter ${shellQuote(options.adapter)}` : `--url ${shellQuote(options.url ?? report.candidate.url)}`;
  const paths = Object.entries(options.paths ?? {})
    .map(([endpoint, path]) => ` --${endpoint} ${shellQuote(path)}`)
    .join('');
  // The headers' values (a token, say) are never written: the replay reads them from the environment.
  return `npx mcp-resume-spec check ${target}${paths}${headerFlags(options.headerNames ?? [])}`;
}

const statusCell = { pass: 'PASS', fail: '**FAIL**', skip: 'SKIP' } as const;

/**
 * The "why this is required" block of a failing property: its level and what that means, the
 * newest revision's quotes (each a blockquote with its source linked), then the derivation or the
 * project's rationale and the seed claims behind it.
 */
export function whyRequired(level: Level, basis: ResultBasis): string[] {
  const out = [`**Why this is required** (${levelTag(level)} ${escapeMarkdown(levelMeaning(level))}):`];
  for (const quote of newestQuotes(basis)) {
    // A quote's `- ` lines are the spec's own list items: they stay a list inside the blockquote.
    const text = quote.text.split('\n').map((line) => `> ${escapeMarkdown(line)}`);
    out.push('', ...text, '>', `> — [MCP ${quote.revision}${quote.section ? `, ${escapeMarkdown(quote.section)}` : ''}](${quote.url})`);
  }
  if (basis.derivation) out.push('', `How it follows: ${escapeMarkdown(basis.derivation)}`);
  if (basis.rationale) out.push('', `Why this project requires it: ${escapeMarkdown(basis.rationale)}`);
  const graded = gradedLine(level, basis);
  if (graded) out.push('', escapeMarkdown(graded));
  if (basis.claims && basis.claims.length > 0)
    out.push(
      '',
      `Seed claims: ${basis.claims.map((c) => `\`${c}\``).join(', ')} (what the incident write-ups claim that this bears on, judged in docs/claims.md).`,
    );
  return out;
}

/**
 * Renders a suite report as Markdown: a title, a summary table, then one section per
 * counterexample with its trace, oracle lines, a Mermaid sequence diagram, the replay command and
 * a vitest reproduction.
 *
 * @param report - what the suite returned
 * @param options - how the candidate was started (for replay commands and the vitest snippets)
 * @returns Markdown, ending with a newline
 */
export function renderMarkdown(report: SuiteReport, options: MarkdownReportOptions = {}): string {
  const counts = countStatuses(report);
  const invocation = defaultInvocation(report, options);
  const out: string[] = [
    `# mcp-resume-spec check: ${escapeMarkdown(report.candidate.name)}${report.candidate.version ? ` ${escapeMarkdown(report.candidate.version)}` : ''}`,
    '',
    `Candidate ${escapeMarkdown(candidateLine(report.candidate))}: ${counts.pass} pass, ${counts.fail} fail, ${counts.skip} skip (${counts.total} properties).`,
  ];
  if (report.coverage) {
    const c = report.coverage;
    out.push('', `Coverage: ${c.reached}/${c.states} model states reached by ${c.scenarios} scenarios.`);
  }
  if (report.interleavings) {
    const i = report.interleavings;
    out.push('', `Interleavings: ${i.runs} runs, seed ${i.seed}, ${Math.round(i.ms)} ms.`);
  }
  out.push('', '| status | level | property | runs | reason |', '| --- | --- | --- | ---: | --- |');
  for (const p of report.properties) {
    out.push(
      `| ${statusCell[p.status]}${baselineCellMark(options.baseline?.outcome, p.id)} | ${p.level.toUpperCase()} | \`${p.id}\` | ${p.runs} | ${p.reason ? escapeMarkdown(p.reason) : ''} |`,
    );
  }
  if (options.baseline) out.push('', '## Baseline', '', ...options.baseline.lines.map((line) => `- ${escapeMarkdown(line)}`));

  const causes = rootCauses(report);
  if (causes.length > 0) {
    out.push('', '## Root causes', '', 'One observation explains several failures (same run, same step):', '');
    for (const c of causes) {
      out.push(`- \`${c.cause}\` (step ${c.step})`);
      for (const id of c.consequences) out.push(`  - \`${id}\``);
    }
  }
  const divergences = report.divergences ?? [];
  if (divergences.length > 0) {
    out.push('', '## Divergences from the model', '');
    for (const d of divergences) {
      out.push(`- ${escapeMarkdown(divergenceLine(d))}. Replay: ${codeSpan(replayCommand(d, invocation))}`, '');
      // Indented under the item: the run's trace, so that the step number can be read against it.
      for (const line of codeBlock('text', numberSteps(traceLines(d.steps)).join('\n')).split('\n')) out.push(line ? `  ${line}` : '');
    }
  }

  const failures = withCounterexamples(report);
  if (failures.length > 0) out.push('', '## Counterexamples');
  const legend = legendOf(report);
  if (failures.length > 0 && legend.length > 0) out.push('', `Names in traces: ${escapeMarkdown(legend.join('; '))}.`);
  for (const p of failures) {
    const c = p.counterexample;
    out.push('', `### \`${p.id}\``, '', `> ${escapeMarkdown(p.basis.statement)}`);
    if (p.reason) out.push('', `**Why it fails:** ${escapeMarkdown(p.reason)}`);
    out.push('', ...whyRequired(p.level, p.basis));
    if (p.causedBy) {
      // The cause's section shows the shared trace and diagram once.
      out.push('', `**${escapeMarkdown(causeLine(p)!)}**: its trace and diagram are under \`${p.causedBy.property}\`.`);
    } else {
      const follows = followsLine(p);
      if (follows) out.push('', `**${escapeMarkdown(follows)}**`);
      out.push('', 'Trace:', '', codeBlock('text', numberSteps(traceLines(c.steps)).join('\n')));
      const oracle = oracleLines(c);
      if (oracle.length > 0) out.push('', 'Oracle (model vs candidate):', '', codeBlock('text', oracle.join('\n')));
      out.push('', codeBlock('mermaid', sequenceDiagram(c.steps)));
    }
    const note = replayNote(c);
    out.push('', `Replay: ${codeSpan(replayCommand(c, invocation))}${note ? ` ${escapeMarkdown(note)}` : ''}`);
    out.push('', 'Reproduce in vitest:', '', codeBlock('ts', vitestReproduction(report, p.id, c, options)));
  }
  return `${out.join('\n')}\n`;
}
