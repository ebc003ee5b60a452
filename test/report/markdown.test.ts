import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { defaultBounds } from '../../model/bounds.js';
import { seed000, withKnob } from '../../model/policy.js';
import { replay } from '../../model/trace.js';
import type { TraceStepData } from '../../model/trace-step.js';
import { enabledSteps } from '../../model/world-steps.js';
import type { WorldStep } from '../../model/world-types.js';
import { initialWorld, step } from '../../model/world.js';
import { escapeMarkdown, escapeMermaid, renderMarkdown, sequenceDiagram, vitestReproduction, whyRequired } from '../../src/report/markdown.js';
import { basisOf } from '../../properties/definitions.js';
import { applyBaseline, baselineLines } from '../../src/report/baseline.js';
import type { Counterexample, SuiteReport } from '../../src/check-server/types.js';
import startFixture from './fixtures/http-adapter.js';
import { causedReport, followingReport, nasty, nastyReport, sampleReport } from './sample.js';

/** The fenced blocks of a language, in order. */
function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`^(\`{3,})${language}\\n([\\s\\S]*?)\\n\\1$`, 'gm'))].map((m) => m[2]!);
}

/** Markdown outside fenced blocks and the replay command's code span. */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,})\w*\n[\s\S]*?\n\1$/gm, '').replace(/^Replay: (`+).*?\1/gm, 'Replay: ');
}

const steps: TraceStepData[] = [
  { index: 1, kind: 'initialize', actor: 'client', transport: 'sse', answer: { status: 200 } },
  { index: 2, kind: 'call', actor: 'client', tool: 'emit', call: 'c1', transport: 'sse', answer: { status: 200 } },
  { index: 3, kind: 'send', actor: 'server', stream: 'l0', answer: { frames: [{ id: 's1-e1', call: 'c1', seq: 1 }] } },
  { index: 4, kind: 'receive', actor: 'client', stream: 'l0', answer: { frames: [{ id: 's1-e1', call: 'c1', seq: 1 }] } },
  { index: 5, kind: 'drain', actor: 'application', stream: 'l0', answer: { frames: [{ id: 's1-e1', call: 'c1', seq: 1 }] } },
  { index: 6, kind: 'send', actor: 'server', stream: 'l0', answer: { frames: [{ id: 's1-e2', call: 'c1', seq: 2 }], logOnly: true } },
  { index: 7, kind: 'drop', actor: 'connection', stream: 'l0', lost: 1, answer: {} },
  {
    index: 8,
    kind: 'resume',
    actor: 'client',
    stream: 'l0',
    transport: 'streamable',
    migrate: true,
    cursor: { value: 's1-e2', origin: 'own' },
    answer: { status: 404, reason: 'session not found; re-initialize <now>' },
  },
  { index: 9, kind: 'timeout', actor: 'client', request: 'q1', call: 'c1', retries: true, answer: {} },
  { index: 10, kind: 'delete', actor: 'client', transport: 'streamable', answer: { status: 200 } },
];

describe('Mermaid sequence diagram', () => {
  test('each step becomes an arrow or a note by its kind', () => {
    expect(sequenceDiagram(steps).split('\n')).toEqual([
      'sequenceDiagram',
      '    participant Client',
      '    participant Wire',
      '    participant Server',
      '    Client->>Server: (1) client initializes over sse',
      '    Server-->>Client: (1) 200',
      '    Client->>Server: (2) client calls emit c1 over sse',
      '    Server-->>Client: (2) 200',
      '    Server-->>Wire: (3) server sends the next event on stream l0 → s1-e1(c1#35;1) on the wire',
      '    Wire-->>Client: (4) client receives a frame on l0 → s1-e1(c1#35;1)',
      '    Note over Client: (5) application drains a frame of l0 → s1-e1(c1#35;1)',
      '    Note over Server: (6) server sends the next event on stream l0 → s1-e2(c1#35;2) to the log only (no connection)',
      '    Note over Wire: (7) connection of l0 drops (unclean: 1 frame(s) in flight or undrained lost)',
      '    Client->>Server: (8) client resumes l0 by migrating to streamable with Last-Event-ID s1-e2',
      '    Server-->>Client: (8) 404 session not found#59; re-initialize #60;now#62;',
      '    Note over Client: (9) request q1 (c1) times out#59; client retries it',
      '    Client->>Server: (9) retry c1',
      '    Client->>Server: (10) client DELETEs the session',
      '    Server-->>Client: (10) 200',
    ]);
  });

  test("every step of the model's world is drawn as what it is, from its kind, whatever its sentence says", () => {
    const expected: Record<WorldStep['type'], RegExp> = {
      INITIALIZE: /^ {4}Client->>Server: /,
      CALL: /^ {4}Client->>Server: /,
      RESUME: /^ {4}Client->>Server: /,
      DELETE: /^ {4}Client->>Server: /,
      SEND: /^ {4}(Server-->>Wire|Note over Server): /,
      RECEIVE: /^ {4}Wire-->>Client: /,
      DRAIN: /^ {4}Note over Client: /,
      DROP: /^ {4}Note over Wire: /,
      TIMEOUT: /^ {4}Note over Client: /,
      EXPIRE: /^ {4}Note over Server: /,
      TRIM: /^ {4}Note over Server: /,
    };
    // deterministic walks of the model's world (seed-000: retries on, migrations accepted; with
    // session expiry and log retention on, every other run, for the server's own steps) until every kind of step has been drawn
    const walked = withKnob(withKnob(seed000, 'sessionExpiry', 'idleTtl'), 'logRetention', 'bounded');
    const seen = new Set<WorldStep['type']>();
    for (let run = 0; run < 200 && seen.size < Object.keys(expected).length; run++) {
      const path: WorldStep[] = [];
      const policy = run % 2 === 0 ? seed000 : walked;
      let world = initialWorld({ policy, bounds: { ...defaultBounds, deletes: 1 } });
      for (let i = 0; i < 40; i++) {
        const enabled = enabledSteps(world);
        if (enabled.length === 0) break;
        const next = enabled[(run * 7 + i * 13 + ((run * i) % 5)) % enabled.length]!;
        path.push(next);
        world = step(world, next);
      }
      const traced = replay(policy, { ...defaultBounds, deletes: 1 }, path);
      const diagram = sequenceDiagram(traced.map((t) => t.data))
        .split('\n')
        .slice(4);
      for (const t of traced) {
        seen.add(t.step.type);
        const first = diagram.find((line) => line.includes(`: (${t.index}) `))!;
        expect(first, `${t.index}. ${t.action}`).toMatch(expected[t.step.type]);
      }
    }
    expect([...seen].sort()).toEqual(Object.keys(expected).sort());
  });

  test("a divergence from the model: the candidate's answer on the arrow, the model's expectation in a note", () => {
    const diagram = sequenceDiagram([
      {
        index: 4,
        kind: 'resume',
        actor: 'client',
        stream: 's0',
        transport: 'streamable',
        cursor: { value: 'garbage-0', origin: 'garbage' },
        answer: { status: 200 },
        expected: { status: 404, reason: 'the Last-Event-ID is not an event of this session' },
      },
      { index: 9, kind: 'receive', actor: 'client', stream: 'r1', answer: { data: '{}' }, expected: { frame: { call: 'c1', seq: 0 } } },
    ]);
    expect(diagram.split('\n').slice(4)).toEqual([
      '    Client->>Server: (4) client resumes s0 over streamable with Last-Event-ID garbage-0 (garbage)',
      '    Server-->>Client: (4) 200',
      '    Note right of Server: (4) model expects 404 the Last-Event-ID is not an event of this session',
      '    Wire-->>Client: (9) client receives a frame on r1 → a frame that matches nothing expected: {}',
      '    Note right of Server: (9) model expects the result of c1',
    ]);
  });

  test('escaping: nothing Mermaid chokes on survives raw', () => {
    const escaped = escapeMermaid(nasty);
    expect(escaped.replace(/#\d+;/g, '')).not.toMatch(/[#;<>"&`%\\\n\r\p{Cc}]/u);
    // every # starts an entity code
    expect(escaped.match(/#/g)!.length).toBe(escaped.match(/#\d+;/g)!.length);
    expect(escapeMermaid('')).toBe(' ');
    const diagram = sequenceDiagram([
      { index: 1, kind: 'call', actor: 'client', tool: 'emit', call: 'c1', transport: 'sse', detail: nasty, answer: { status: 200, reason: nasty } },
      { index: 2, kind: 'drop', actor: 'connection', stream: nasty, answer: {} },
    ]);
    for (const line of diagram.split('\n').slice(4)) {
      expect(line).toMatch(/^ {4}(Client->>Server|Server-->>Client|Note over Wire): \(\d+\) /);
      expect(line.slice(line.indexOf(': ') + 2).replace(/#\d+;/g, '')).not.toMatch(/[#;<>]/);
    }
  });
});

test('a failure graded below its property says so under why, as the text report does', () => {
  const { basis } = basisOf('no-silent-loss');
  expect(whyRequired('policy', basis).join('\n')).toMatch(/Graded POLICY here, below the property's level: only notifications were lost/);
  expect(whyRequired('should', basis).join('\n')).not.toContain('Graded');
});

describe('vitest reproduction', () => {
  const report = sampleReport();
  const failing = report.properties[2]!;

  test('contains the seed, the path, the property and the exact replay call; it is valid TypeScript', () => {
    const snippet = vitestReproduction(report, failing.id, failing.counterexample!, { adapter: 'src/check-server/candidates/sdk.ts', cwd: '/work/project' });
    expect(snippet).toContain("import { runSuite, type CandidateTarget } from 'mcp-resume-spec';");
    expect(snippet).toContain('import startCandidate from "./src/check-server/candidates/sdk.ts";');
    expect(snippet).toContain('const ID = "order-preserved" as const;');
    expect(snippet).toContain('const SEED = 1234567;');
    expect(snippet).toContain('const PATH = "12:3:0:0";');
    expect(snippet).toContain('runSuite(candidate, { seed: SEED, path: PATH, only: [ID] })');
    expect(snippet).toContain('const property = result.properties.find(p => p.id === ID)!;');
    expect(snippet).toContain("expect(property.status, property.reason).toBe('pass');");
    expect(snippet).not.toContain("toBe('fail')");
    const out = ts.transpileModule(snippet, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } });
    expect(out.diagnostics ?? []).toEqual([]);
  });

  test('deterministic counterexamples: seed -1 and their coverage/probe path, same call', () => {
    const snippet = vitestReproduction(report, 'unknown-cursor-rejected', report.properties[1]!.counterexample!, { url: 'http://127.0.0.1:3000' });
    expect(snippet).toContain('const SEED = -1;');
    expect(snippet).toContain('const PATH = "probe:garbage-cursor";');
    expect(snippet).toContain('const candidate: CandidateTarget = { name: "@modelcontextprotocol/sdk", version: "1.32.2", url: "http://127.0.0.1:3000" };');
    expect(snippet).not.toContain('startCandidate');
    expect(snippet).toContain("import { expect, test } from 'vitest';");
  });

  test('headers given with --header: read from the environment, their values never written', () => {
    const snippet = vitestReproduction(report, 'unknown-cursor-rejected', report.properties[1]!.counterexample!, {
      url: 'http://127.0.0.1:3000',
      headerNames: ['authorization'],
    });
    expect(snippet).toContain(`const headers = { "authorization": process.env.MCP_HEADER_AUTHORIZATION ?? '' };`);
    expect(snippet).toContain('url: "http://127.0.0.1:3000", headers };');
    const adapted = vitestReproduction(report, 'unknown-cursor-rejected', report.properties[1]!.counterexample!, {
      adapter: 'gated.ts',
      headerNames: ['x-api-key'],
    });
    expect(adapted).toContain('process.env.MCP_HEADER_X_API_KEY');
    expect(adapted).toContain('headers: { ...running.headers, ...headers } };');
    for (const source of [snippet, adapted])
      expect(ts.transpileModule(source, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } }).diagnostics ?? []).toEqual([]);
    const withClient = vitestReproduction(report, 'order-preserved', failing.counterexample!, { url: 'http://127.0.0.1:3000', client: { dedup: false } });
    expect(withClient).toContain('runSuite(candidate, { seed: SEED, path: PATH, only: [ID], client: {"dedup":false} })');
    const document = renderMarkdown(report, { url: 'http://127.0.0.1:3000', headerNames: ['authorization'] });
    expect(document).toContain('--header "authorization: $MCP_HEADER_AUTHORIZATION" --path probe:garbage-cursor');
    // An adapter's own headers go into its reproduction, with or without --header.
    const own = vitestReproduction(report, 'unknown-cursor-rejected', report.properties[1]!.counterexample!, { adapter: 'gated.ts' });
    expect(own).toContain('url: running.url, headers: { ...running.headers } };');
  });

  test('run for real (runSuite stubbed): starts the adapter, replays with seed and path, red while the property fails, green once it holds, stops it', async () => {
    const counterexample: Counterexample = {
      steps: [{ index: 1, kind: 'initialize', actor: 'client', transport: 'streamable', answer: { status: 200 } }],
      seed: 42,
      path: `coverage:17 ${nasty}`,
    };
    const snippet = vitestReproduction(report, 'no-silent-loss', counterexample, { adapter: '/abs/adapter.ts', paths: { mcp: '/v2/mcp' } });
    const js = ts.transpileModule(snippet, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    const hooks: { before: Array<() => Promise<void>>; after: Array<() => Promise<void>>; tests: Array<() => Promise<void>> } = {
      before: [],
      after: [],
      tests: [],
    };
    const calls: Array<{ candidate: { url: string; name: string; paths?: unknown }; options: { seed: number; path: string; only: string[] } }> = [];
    // What the replay finds: the bug still there, then fixed.
    const statuses = ['fail', 'pass'];
    const stops: string[] = [];
    const modules: Record<string, unknown> = {
      vitest: {
        beforeAll: (fn: () => Promise<void>) => hooks.before.push(fn),
        afterAll: (fn: () => Promise<void>) => hooks.after.push(fn),
        test: (_name: string, fn: () => Promise<void>) => hooks.tests.push(fn),
        expect,
      },
      'mcp-resume-spec': {
        runSuite: async (candidate: (typeof calls)[number]['candidate'], options: (typeof calls)[number]['options']) => {
          calls.push({ candidate, options });
          return { candidate, properties: [{ id: options.only[0], status: statuses[calls.length - 1], runs: 1, reason: 'the replayed reason' }] };
        },
      },
      '/abs/adapter.ts': {
        default: async () => {
          const running = await startFixture();
          const stop = async (): Promise<void> => {
            stops.push(running.url);
            await running.stop();
          };
          return { ...running, stop };
        },
      },
    };
    const require = (id: string): unknown => {
      if (!(id in modules)) throw new Error(`the snippet imports ${id}`);
      return modules[id];
    };
    new Function('require', 'exports', 'module', js)(require, {}, { exports: {} });
    expect([hooks.before.length, hooks.tests.length, hooks.after.length]).toEqual([1, 1, 1]);
    await hooks.before[0]!();
    await expect(hooks.tests[0]!()).rejects.toThrow(/the replayed reason/);
    await hooks.tests[0]!();
    await hooks.after[0]!();
    expect(calls).toHaveLength(2);
    expect(calls[0]!.options).toEqual({ seed: 42, path: `coverage:17 ${nasty}`, only: ['no-silent-loss'] });
    expect(calls[0]!.candidate).toMatchObject({ name: 'fixture-http', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+/), paths: { mcp: '/v2/mcp' } });
    expect(stops).toEqual([calls[0]!.candidate.url]);
  });
});

describe('Markdown report', () => {
  test('summary table, one section per counterexample with trace, diagram, replay and vitest test', () => {
    const md = renderMarkdown(sampleReport(), { adapter: 'src/check-server/candidates/sdk.ts', cwd: '/work/project' });
    expect(md).toContain('# mcp-resume-spec check: @modelcontextprotocol/sdk 1.32.2\n');
    expect(md).toContain('| status | level | property | runs | reason |\n| --- | --- | --- | ---: | --- |\n');
    expect(md).toContain('| PASS | SHOULD | `no-silent-loss` | 200 | every promised event reached the application |');
    expect(md).toContain('| **FAIL** | POLICY | `order-preserved` | 57 | r1: seq 3 reached the application before seq 2 |');
    expect(md).toContain('| SKIP | MUST | `session-ids-visible-ascii` | 0 | the candidate serves no session IDs |');
    expect(md.match(/\*\*Why this is required\*\*/g)).toHaveLength(2);
    expect(md).toContain('### `unknown-cursor-rejected`\n');
    expect(md).toContain('### `order-preserved`\n');
    expect(blocks(md, 'mermaid')).toHaveLength(2);
    expect(blocks(md, 'mermaid')[1]).toBe(sequenceDiagram(sampleReport().properties[2]!.counterexample!.steps));
    expect(blocks(md, 'ts')).toHaveLength(2);
    expect(blocks(md, 'ts')[1]).toContain('const SEED = 1234567;');
    expect(blocks(md, 'text')[0]).toBe(
      '1. client initializes over streamable -> 200\n2. client calls emit c1 over streamable -> 200\n3. client resumes r1 over streamable with Last-Event-ID garbage (garbage) -> 200, a quiet stream; model expects 404 unknown cursor',
    );
    expect(blocks(md, 'text')[1]).toBe('step 3: model expects 404 unknown cursor; candidate answered 200, a quiet stream');
    expect(md).toContain('Replay: `npx mcp-resume-spec check --adapter src/check-server/candidates/sdk.ts --seed 1234567 --path 12:3:0:0`');
    expect(md).toContain(
      'Replay: `npx mcp-resume-spec check --adapter src/check-server/candidates/sdk.ts --path probe:garbage-cursor` (deterministic scenario probe:garbage-cursor, run on every check)',
    );
  });

  test('nasty strings: no raw HTML or table breakage outside code; code blocks cannot be closed early', () => {
    const md = renderMarkdown(nastyReport(), { url: 'http://127.0.0.1:1' });
    const text = prose(md);
    expect(text).not.toMatch(/<|(?![\t\n])\p{Cc}/u);
    expect(text).not.toMatch(/&(?!amp;|lt;|gt;|quot;)/);
    // every table row still has exactly 5 cells
    for (const row of text.split('\n').filter((l) => l.startsWith('| '))) {
      expect(row.replace(/\\\|/g, '').match(/\|/g), row).toHaveLength(6);
    }
    // the fences balance: 2 counterexamples x (trace, mermaid, ts), and the first one's oracle
    expect(blocks(md, 'text')).toHaveLength(3);
    expect(blocks(md, 'mermaid')).toHaveLength(2);
    expect(blocks(md, 'ts')).toHaveLength(2);
    expect(escapeMarkdown('a|b<c>&`d`*e*\n#')).toBe('a\\|b&lt;c&gt;&amp;\\`d\\`\\*e\\* \\#');
  });

  test('root causes: named once with their consequences; a consequence has no trace or diagram of its own', () => {
    const md = renderMarkdown(causedReport(), { url: 'http://127.0.0.1:1' });
    expect(md).toContain(
      '## Root causes\n\nOne observation explains several failures (same run, same step):\n\n- `unknown-cursor-rejected` (step 3)\n  - `no-silent-stall`\n',
    );
    // per-property statuses stay
    expect(md).toMatch(/^\| \*\*FAIL\*\* \| \w+ \| `no-silent-stall` \|/m);
    const section = md.slice(md.indexOf('### `no-silent-stall`'));
    expect(section).toContain('**consequence of unknown-cursor-rejected (same run, step 3)**: its trace and diagram are under `unknown-cursor-rejected`.');
    expect(blocks(section, 'mermaid')).toHaveLength(0);
    expect(blocks(section, 'ts')).toHaveLength(1);
    expect(blocks(md, 'mermaid')).toHaveLength(2);
    // what the traces' short names stand for, once, above them
    expect(md).toMatch(/## Counterexamples\n\nNames in traces: c1, c2\.\.\.: tool calls, .*; rN: a POST's response stream; .*\.\n\n### /);
  });

  test('a failure that never broke on its own says what it follows from, above its own trace', () => {
    const section = renderMarkdown(followingReport()).split('### `at-most-once-effect`')[1]!;
    expect(section).toContain(
      '**never failed on its own: every run that broke it also broke unknown-cursor-rejected (or another property of higher precedence) at the same step; fix unknown-cursor-rejected first**\n\nTrace:',
    );
  });

  test('a baseline: the table marks a failure it covers (known) and a listed one that passes (FIXED); its lines in a section', () => {
    const report = sampleReport();
    const listed = new Set(['unknown-cursor-rejected', 'no-silent-loss'] as const);
    const outcome = applyBaseline('b.json', listed, report.properties);
    const md = renderMarkdown(report, { url: 'http://127.0.0.1:1', baseline: { outcome, lines: baselineLines(outcome, listed, report.properties) } });
    expect(md).toContain('| **FAIL** (known) | POLICY | `unknown-cursor-rejected` |');
    expect(md).toContain('| PASS (FIXED) | SHOULD | `no-silent-loss` |');
    expect(md).toContain('| **FAIL** | POLICY | `order-preserved` |');
    expect(md).toContain('## Baseline\n\n- baseline b.json: 1 known failure(s) do not fail the check (unknown-cursor-rejected)\n- FIXED no-silent-loss');
    expect(renderMarkdown(report, { url: 'http://127.0.0.1:1' })).not.toMatch(/\(known\)|\(FIXED\)|## Baseline/);
  });

  test('divergences from the model: a section of their own, each with its replay', () => {
    const md = renderMarkdown(causedReport(), { url: 'http://127.0.0.1:1' });
    expect(md).toContain(
      '## Divergences from the model\n\n- deviates from the model at step 3 (client resumes r1 over streamable with Last-Event-ID garbage (garbage)): model expects 404 unknown cursor, candidate answered 200, a quiet stream (2 runs). Replay: `npx mcp-resume-spec check --url http://127.0.0.1:1 --path coverage:4`\n\n' +
        '  ```text\n' +
        '  1. client initializes over streamable -> 200\n' +
        '  2. client calls emit c1 over streamable -> 200\n' +
        '  3. client resumes r1 over streamable with Last-Event-ID garbage (garbage) -> 200, a quiet stream; model expects 404 unknown cursor\n' +
        '  ```\n',
    );
    expect(renderMarkdown(sampleReport())).not.toContain('## Divergences');
  });

  test('a code span around a replay command with backticks uses a longer delimiter', () => {
    const report: SuiteReport = {
      candidate: { name: 'x', url: 'http://127.0.0.1:1' },
      properties: [
        {
          id: 'no-silent-loss',
          ...basisOf('no-silent-loss'),
          status: 'fail',
          runs: 1,
          counterexample: { steps: [{ index: 1, kind: 'ping', actor: 'client', answer: {} }], seed: 1, path: '1:2' },
        },
      ],
    };
    const md = renderMarkdown(report, { invocation: 'check --url `weird`' });
    expect(md).toContain('Replay: ``check --url `weird` --seed 1 --path 1:2``');
  });
});

describe('why this is required', () => {
  test("a policy: the level and what it means, the newest revision's quotes linked, the rationale and the seed claims", () => {
    const { level, basis } = basisOf('unknown-cursor-rejected');
    const block = whyRequired(level, basis).join('\n');
    expect(block).toMatch(/^\*\*Why this is required\*\* \(\[POLICY\] this project's rule where the MCP specification is silent\):/);
    expect(block).toContain(
      '> The server MAY use this header to replay messages that would have been sent after the last event ID, on the stream that was disconnected, and to resume the stream from that point.',
    );
    expect(block).toContain(
      '> — [MCP 2025-11-25, Session Management](https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management)',
    );
    expect(block).not.toContain('2025-03-26');
    expect(block).toContain(`Why this project requires it: ${escapeMarkdown(basis.rationale!)}`);
    expect(block).toContain('Seed claims: `003-quiet-stream`, `003-rule`');
    expect(block).not.toContain('How it follows');
  });

  test('a derived MUST says how it follows; a quoted list stays a list inside the blockquote', () => {
    const { level, basis } = basisOf('capabilities-honoured');
    const block = whyRequired(level, basis);
    expect(block[0]).toContain('[DERIVED] follows from a MUST');
    expect(block).toContain('> Both parties MUST:');
    expect(block).toContain('> - Only use capabilities that were successfully negotiated');
    expect(block.join('\n')).toContain('How it follows: ');
  });

  test('the report shows the block under each failing property', () => {
    const md = renderMarkdown(sampleReport(), { url: 'http://127.0.0.1:1' });
    const section = md.slice(md.indexOf('### `unknown-cursor-rejected`'), md.indexOf('### `order-preserved`'));
    expect(section).toContain(whyRequired('policy', basisOf('unknown-cursor-rejected').basis).join('\n'));
  });
});

describe('vitest reproduction: adapter paths', () => {
  test("the import names no machine's folders: relative to the directory the check ran in, with a note to adjust it", () => {
    const report = sampleReport();
    const counterexample = report.properties[2]!.counterexample!;
    const note = '// The adapter path below is relative to the directory the check ran in: adjust it to where you put this test.\n';
    const relative = vitestReproduction(report, 'order-preserved', counterexample, { adapter: 'candidates/mine.ts', cwd: '/ci/runner/repo' });
    expect(relative).toContain(`${note}import startCandidate from "./candidates/mine.ts";`);
    // As the CLI passes it: the path as typed, absolute, under the directory of the check.
    const absolute = vitestReproduction(report, 'order-preserved', counterexample, { adapter: '/ci/runner/repo/candidates/mine.ts', cwd: '/ci/runner/repo' });
    expect(absolute).toContain(`${note}import startCandidate from "./candidates/mine.ts";`);
    // Elsewhere: as given (a path climbing out of the directory would be wrong from the test file anyway).
    const outside = vitestReproduction(report, 'order-preserved', counterexample, { adapter: '/srv/mine.mjs', cwd: '/ci/runner/repo' });
    expect(outside).toContain('\nimport startCandidate from "/srv/mine.mjs";');
    expect(outside).not.toContain('relative to the directory');
  });
});
