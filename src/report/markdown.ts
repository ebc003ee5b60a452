/**
 * The Markdown report: a summary table, then for each counterexample its trace, a Mermaid
 * `sequenceDiagram` of the steps (participants Client, Wire, Server), how to replay it from the
 * CLI, and a ready-to-paste vitest test that reproduces it through the suite's replay entry point.
 *
 * Step grammar for the diagram (first line of each step; a leading `N.` is dropped; the text after
 * the first ` -> ` is the answer; matching is case-insensitive):
 *
 * | step (checked in this order) | drawn as |
 * |---|---|
 * | `[request] R ... times out[; client retries it]` (anything saying times out / timed out) | `Note over Client` (and `Client->>Server: retry R` when it retries) |
 * | `[client / session X] <request verb> ...`, the verb bare or with -s/-d (initialize, re-initialize, call, resume, migrate, reconnect, delete, send, post, get, open, ping, list, request, retry, present, session_info, emit, emit_unsolicited), or a step starting with `GET`/`POST`/`DELETE` | `Client->>Server: action`, then `Server-->>Client: answer` if there is one |
 * | `server <answer verb> ...` (answers, replies, responds, returns, rejects, accepts, ends, closes) | `Server-->>Client` |
 * | `server sends/writes/emits/pushes/replays ...` | `Server-->>Wire`; a `Note over Server` when the answer says it went to the log only / no connection |
 * | `client receives/reads/parses ...` | `Wire-->>Client` |
 * | `[client] application/app drains/processes/handles ...`, `client drains ...` | `Note over Client` |
 * | `connection of S drops ...`, anything with drop(s/ped), sever(s/ed), cut, connection lost/reset/closed | `Note over Wire` |
 * | anything else | `Note over Client,Server` with the whole step |
 *
 * An answer of the form `model expects X; candidate answered|sent Y` (the suite's divergence
 * from the oracle) draws Y as the answer, then `Note right of Server: model expects X`.
 *
 * Message text is escaped with Mermaid's entity codes (`#35;` for `#`, `#59;` for `;`, `#60;` for
 * `<`, ...); control characters become visible `\uXXXX`. Pure: no I/O.
 */
import { isAbsolute, resolve } from 'node:path';
import { propertyStatements, type PropertyId } from '../../model/property-ids.js';
import type { Endpoint } from '../../properties/history.js';
import type { Counterexample, SuiteReport } from '../suite/types.js';
import {
  candidateLine,
  countStatuses,
  isFastCheck,
  numberSteps,
  oneLine,
  replayCommand,
  replayNote,
  stepNumber,
  stepSentence,
  visible,
  withCounterexamples,
} from './common.js';

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
  const escaped = oneLine(text).replace(/[#;<>"&`%\\]/g, (c) => mermaidCodes[c]!).trim();
  return escaped === '' ? ' ' : escaped;
}

// ---------------------------------------------------------------------------------------------
// Mermaid

/** What a step is, for the diagram. */
export type StepKind = 'request' | 'answer' | 'send' | 'receive' | 'drain' | 'drop' | 'timeout' | 'other';

const requestVerbs =
  /^(?:client |session \S+ )?(?:re-?initiali[sz]e|initiali[sz]e|call|resume|migrate|reconnect|delete|send|post|get|open|ping|list|request|retr(?:y|ie)|present|session_info|emit_unsolicited|emit)(?:s|d)?\b/i;
const httpRequest = /^(GET|POST|DELETE)\s/;
const answerVerbs = /^server (answers|replies|responds|returns|rejects|accepts|ends|closes)\b/i;
const sendVerbs = /^server (sends|writes|emits|pushes|replays)\b/i;
const receiveVerbs = /^client (receives|reads|parses)\b/i;
const drainVerbs = /^((the )?(client )?(application|app) (drains|processes|handles)|client drains)\b/i;
const dropWords = /\b(drop|drops|dropped|sever|severs|severed|cut)\b|\bconnection (lost|reset|closed)\b/i;
const timeoutWords = /\b(times? out|timed out)\b/i;

/**
 * Classifies one step sentence (without its number and answer) by the grammar in this module's
 * header.
 */
export function classifyStep(action: string): StepKind {
  if (timeoutWords.test(action)) return 'timeout';
  if (requestVerbs.test(action) || httpRequest.test(action)) return 'request';
  if (answerVerbs.test(action)) return 'answer';
  if (sendVerbs.test(action)) return 'send';
  if (receiveVerbs.test(action)) return 'receive';
  if (drainVerbs.test(action)) return 'drain';
  if (dropWords.test(action)) return 'drop';
  return 'other';
}

/** The suite's way of saying the candidate left the model: `model expects X; candidate answered Y`. */
const divergence = /^model expects (.+?); candidate (?:answered|sent|said|did) (.+)$/i;

/**
 * Splits a step into its number, its action and its answer (after the first ` -> `); an answer
 * that reports a divergence from the model is split into what the candidate did and what the
 * model expected.
 */
function parseStep(step: string, index: number): { n: number; action: string; answer: string; expected?: string } {
  const sentence = stepSentence(step);
  const arrow = sentence.indexOf(' -> ');
  const action = (arrow >= 0 ? sentence.slice(0, arrow) : sentence).trim();
  const answer = (arrow >= 0 ? sentence.slice(arrow + 4) : '').trim();
  const diverged = divergence.exec(answer);
  if (diverged) return { n: stepNumber(step, index + 1), action, answer: diverged[2]!.trim(), expected: diverged[1]!.trim() };
  return { n: stepNumber(step, index + 1), action, answer };
}

/**
 * The Mermaid lines (without the fence) of a `sequenceDiagram` for a counterexample's steps.
 *
 * @param steps - the counterexample's steps, numbered or not
 * @returns `sequenceDiagram`, the three participants, then one or two lines per step
 */
export function sequenceDiagram(steps: readonly string[]): string {
  const lines = ['sequenceDiagram', '    participant Client', '    participant Wire', '    participant Server'];
  const add = (line: string): void => {
    lines.push(`    ${line}`);
  };
  steps.forEach((step, i) => {
    const { n, action, answer, expected } = parseStep(step, i);
    const label = (text: string): string => escapeMermaid(`(${n}) ${text}`);
    const withAnswer = answer ? `${action} → ${answer}` : action;
    switch (classifyStep(action)) {
      case 'request':
        add(`Client->>Server: ${label(action)}`);
        if (answer) add(`Server-->>Client: ${label(answer)}`);
        break;
      case 'answer':
        add(`Server-->>Client: ${label(withAnswer)}`);
        break;
      case 'send':
        if (/log only|no connection/i.test(withAnswer)) add(`Note over Server: ${label(withAnswer)}`);
        else add(`Server-->>Wire: ${label(withAnswer)}`);
        break;
      case 'receive':
        add(`Wire-->>Client: ${label(withAnswer)}`);
        break;
      case 'drain':
        add(`Note over Client: ${label(withAnswer)}`);
        break;
      case 'drop':
        add(`Note over Wire: ${label(withAnswer)}`);
        break;
      case 'timeout': {
        add(`Note over Client: ${label(withAnswer)}`);
        const request = /^(?:request )?(\S+)/i.exec(action)?.[1];
        if (/\bretries\b/i.test(action)) add(`Client->>Server: ${label(`retry${request ? ` ${request}` : ''}`)}`);
        break;
      }
      case 'other':
        add(`Note over Client,Server: ${label(withAnswer)}`);
        break;
    }
    if (expected !== undefined) add(`Note right of Server: ${label(`model expects ${expected}`)}`);
  });
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// vitest reproduction

/** How the candidate the user checked is reached again, for replay lines and vitest snippets. */
export interface CandidateSource {
  /** The `--adapter MODULE` path as given on the command line. */
  adapter?: string;
  /** Directory `adapter` is relative to (the cwd of the check); makes the snippet's import absolute. */
  cwd?: string;
  /** The `--url` the candidate was checked at (used when there is no `adapter`; default: the report's url). */
  url?: string;
  /** Endpoint paths given by `--mcp`/`--sse`/`--messages`, if not the defaults. */
  paths?: Partial<Record<Endpoint, string>>;
}

function adapterSpecifier(adapter: string, cwd: string | undefined): string {
  let spec = adapter;
  if (!isAbsolute(spec) && cwd !== undefined && isAbsolute(cwd)) spec = resolve(cwd, spec);
  spec = spec.replace(/\\/g, '/');
  if (!spec.startsWith('/') && !/^[A-Za-z]:\//.test(spec) && !spec.startsWith('.')) spec = `./${spec}`;
  return spec;
}

/**
 * A vitest test file that reproduces one counterexample: it starts the candidate (imports the
 * adapter module and calls its default export, or targets the URL), replays the counterexample with
 * `runSuite(candidate, { seed, path, only: [id] })` from `mcp-resume-spec/src/suite/run-suite.js`,
 * and expects the property to fail. Deterministic counterexamples (seed -1, `coverage:N` /
 * `probe:NAME`) replay through the same call.
 *
 * @param report - the report the counterexample comes from (for the candidate's name and url)
 * @param id - the failing property
 * @param counterexample - its counterexample
 * @param source - how the candidate was started
 * @returns TypeScript source, ending with a newline
 */
export function vitestReproduction(
  report: SuiteReport,
  id: PropertyId,
  counterexample: Counterexample,
  source: CandidateSource = {},
): string {
  const q = (value: unknown): string => JSON.stringify(value);
  const paths = source.paths && Object.keys(source.paths).length > 0 ? `, paths: ${q(source.paths)}` : '';
  const lines = [
    `// Reproduces ${id} against ${oneLine(report.candidate.name)}: ${isFastCheck(counterexample) ? 'fast-check' : 'deterministic'} counterexample.`,
    "// mcp-resume-spec ships TypeScript sources: let vitest transform them (test.server.deps.inline: ['mcp-resume-spec']).",
    "import { afterAll, beforeAll, expect, test } from 'vitest';",
    "import { runSuite } from 'mcp-resume-spec/src/suite/run-suite.js';",
    "import type { CandidateTarget } from 'mcp-resume-spec/src/suite/types.js';",
  ];
  if (source.adapter !== undefined) {
    const specifier = adapterSpecifier(source.adapter, source.cwd);
    if (specifier.startsWith('.')) lines.push('// The adapter path below is relative to this file: adjust it to where you put the test.');
    lines.push(`import startCandidate from ${q(specifier)};`);
  }
  lines.push(
    '',
    `const ID = ${q(id)} as const;`,
    `const SEED = ${counterexample.seed};`,
    `const PATH = ${q(counterexample.path)};`,
    '',
  );
  if (source.adapter !== undefined) {
    lines.push(
      'let running: Awaited<ReturnType<typeof startCandidate>> | undefined;',
      'let candidate: CandidateTarget;',
      '',
      'beforeAll(async () => {',
      '  running = await startCandidate();',
      `  candidate = { name: running.name ?? ${q(report.candidate.name)}, version: running.version, url: running.url${paths} };`,
      '}, 30_000);',
      '',
      'afterAll(async () => {',
      '  await running?.stop();',
      '});',
    );
  } else {
    const url = source.url ?? report.candidate.url;
    const version = report.candidate.version !== undefined ? `, version: ${q(report.candidate.version)}` : '';
    lines.push(`const candidate: CandidateTarget = { name: ${q(report.candidate.name)}${version}, url: ${q(url)}${paths} };`);
  }
  lines.push(
    '',
    'test(`${ID} fails when seed ${SEED}, path ${PATH} is replayed`, async () => {',
    '  const result = await runSuite(candidate, { seed: SEED, path: PATH, only: [ID] });',
    "  expect(result.properties.find(p => p.id === ID)!.status).toBe('fail');",
    '}, 120_000);',
  );
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// The document

export interface MarkdownReportOptions extends CandidateSource {
  /**
   * The command that checked the candidate, without `--seed`/`--path`; default built from
   * `adapter` or `url`: `mcp-resume-spec check --adapter MODULE` / `--url URL`.
   */
  invocation?: string;
}

function defaultInvocation(report: SuiteReport, options: MarkdownReportOptions): string {
  if (options.invocation !== undefined) return options.invocation;
  const target = options.adapter !== undefined ? `--adapter ${options.adapter}` : `--url ${options.url ?? report.candidate.url}`;
  const paths = Object.entries(options.paths ?? {})
    .map(([endpoint, path]) => ` --${endpoint} ${path}`)
    .join('');
  return `mcp-resume-spec check ${target}${paths}`;
}

const statusCell = { pass: 'PASS', fail: '**FAIL**', skip: 'SKIP' } as const;

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
  out.push('', '| status | property | runs | reason |', '| --- | --- | ---: | --- |');
  for (const p of report.properties) {
    out.push(`| ${statusCell[p.status]} | \`${p.id}\` | ${p.runs} | ${p.reason ? escapeMarkdown(p.reason) : ''} |`);
  }

  const failures = withCounterexamples(report);
  if (failures.length > 0) out.push('', '## Counterexamples');
  for (const p of failures) {
    const c = p.counterexample;
    out.push('', `### \`${p.id}\``, '', `> ${escapeMarkdown(propertyStatements[p.id] ?? '')}`);
    if (p.reason) out.push('', `**Why it fails:** ${escapeMarkdown(p.reason)}`);
    out.push('', 'Trace:', '', codeBlock('text', numberSteps(c.steps).join('\n')));
    if (c.oracle && c.oracle.length > 0) out.push('', 'Oracle (model vs candidate):', '', codeBlock('text', c.oracle.join('\n')));
    out.push('', codeBlock('mermaid', sequenceDiagram(c.steps)));
    const note = replayNote(c);
    out.push('', `Replay: ${codeSpan(replayCommand(c, invocation))}${note ? ` ${escapeMarkdown(note)}` : ''}`);
    out.push('', 'Reproduce in vitest:', '', codeBlock('ts', vitestReproduction(report, p.id, c, options)));
  }
  return `${out.join('\n')}\n`;
}
