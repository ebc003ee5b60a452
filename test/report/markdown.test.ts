import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { defaultBounds } from '../../model/bounds.js';
import { seed000 } from '../../model/policy.js';
import { describeStep } from '../../model/trace.js';
import { enabledSteps } from '../../model/world-steps.js';
import type { WorldStep } from '../../model/world-types.js';
import { initialWorld, step } from '../../model/world.js';
import {
  classifyStep,
  escapeMarkdown,
  escapeMermaid,
  renderMarkdown,
  sequenceDiagram,
  type StepKind,
  vitestReproduction,
} from '../../src/report/markdown.js';
import type { Counterexample, SuiteReport } from '../../src/suite/types.js';
import startFixture from './fixtures/http-adapter.js';
import { nasty, nastyReport, sampleReport } from './sample.js';

/** The fenced blocks of a language, in order. */
function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`^(\`{3,})${language}\\n([\\s\\S]*?)\\n\\1$`, 'gm'))].map((m) => m[2]!);
}

/** Markdown outside fenced blocks and the replay command's code span. */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,})\w*\n[\s\S]*?\n\1$/gm, '').replace(/^Replay: (`+).*?\1/gm, 'Replay: ');
}

const steps = [
  ' 1. client initializes over sse -> 200',
  ' 2. client calls emit c1 over sse -> 200',
  ' 3. server sends the next event on stream l0 -> s1-e1(c1#1) on the wire',
  ' 4. client receives a frame on l0 -> s1-e1(c1#1)',
  ' 5. application drains a frame of l0 -> s1-e1(c1#1)',
  ' 6. server sends the next event on stream l0 -> s1-e2(c1#2) to the log only (no connection)',
  ' 7. connection of l0 drops (unclean: 1 frame(s) in flight or undrained lost)',
  ' 8. client resumes l0 by migrating to streamable with Last-Event-ID s1-e2 -> 404 session not found; re-initialize <now>',
  ' 9. request q1 (c1) times out; client retries it',
  '10. client DELETEs the session -> 200',
  '11. GET /mcp with Last-Event-ID x -> 200 text/event-stream',
  '12. the candidate logged "weird" & moved on',
];

describe('Mermaid sequence diagram', () => {
  test('each step becomes an arrow or a note by the step grammar', () => {
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
      '    Client->>Server: (9) retry q1',
      '    Client->>Server: (10) client DELETEs the session',
      '    Server-->>Client: (10) 200',
      '    Client->>Server: (11) GET /mcp with Last-Event-ID x',
      '    Server-->>Client: (11) 200 text/event-stream',
      '    Note over Client,Server: (12) the candidate logged #34;weird#34; #38; moved on',
    ]);
  });

  test('unnumbered steps are numbered in order; only the first line of a step is drawn', () => {
    const diagram = sequenceDiagram(['client initializes over streamable -> 200\n    server: session-1 active', 'connection of r1 drops (clean)']);
    expect(diagram).toContain('    Client->>Server: (1) client initializes over streamable\n    Server-->>Client: (1) 200\n    Note over Wire: (2) connection of r1 drops (clean)');
    expect(diagram).not.toContain('session-1');
  });

  test("every sentence of the model's trace vocabulary is drawn as what it is (none falls back to a note)", () => {
    const expected: Record<WorldStep['type'], StepKind> = {
      INITIALIZE: 'request',
      CALL: 'request',
      RESUME: 'request',
      DELETE: 'request',
      SEND: 'send',
      RECEIVE: 'receive',
      DRAIN: 'drain',
      DROP: 'drop',
      TIMEOUT: 'timeout',
    };
    // deterministic walks of the model's world (seed-000: retries on, migrations accepted) until
    // every kind of step has been described
    const seen = new Map<WorldStep['type'], Set<string>>();
    for (let run = 0; run < 200 && seen.size < Object.keys(expected).length; run++) {
      let world = initialWorld({ policy: seed000, bounds: { ...defaultBounds, deletes: 1 } });
      for (let i = 0; i < 40; i++) {
        const enabled = enabledSteps(world);
        if (enabled.length === 0) break;
        const next = enabled[(run * 7 + i * 13 + ((run * i) % 5)) % enabled.length]!;
        const sentences = seen.get(next.type) ?? new Set<string>();
        sentences.add(describeStep(world, next));
        seen.set(next.type, sentences);
        world = step(world, next);
      }
    }
    expect([...seen.keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [type, sentences] of seen) {
      for (const sentence of sentences) expect(classifyStep(sentence), sentence).toBe(expected[type]);
    }
  });

  test("the suite's own sentences: probes (imperative, no subject) and the driver's retry", () => {
    const requests = [
      'initialize session 1 over streamable',
      'initialize over sse',
      'ping',
      'DELETE the session',
      'ping with the deleted session ID',
      'resume with the deleted session ID',
      'ping, keep only the first identified frame, drop',
      'resume with Last-Event-ID abc_123',
      'session A calls emit with 2 notifications; receive all',
      'session A pings',
      "resume with session B's ID and session A's Last-Event-ID abc",
      'session_info over sse',
      'migrate: resume at /mcp with the legacy session and Last-Event-ID x',
      'session_info over streamable in the migrated session',
    ];
    for (const sentence of requests) expect(classifyStep(sentence), sentence).toBe('request');
    expect(classifyStep('drop the legacy stream')).toBe('drop');
    expect(classifyStep('c1 times out; client retries it')).toBe('timeout');
    expect(sequenceDiagram(['4. c1 times out; client retries it'])).toContain(
      '    Note over Client: (4) c1 times out#59; client retries it\n    Client->>Server: (4) retry c1',
    );
  });

  test("a divergence from the model: the candidate's answer on the arrow, the model's expectation in a note", () => {
    const diagram = sequenceDiagram([
      '4. client resumes s0 over streamable with Last-Event-ID garbage-0 (garbage) -> model expects 404 Last-Event-ID garbage-0 is not an event of this session; candidate answered 200',
      '9. client receives a frame on r1 -> model expects the result of c1 next on r1; candidate sent {}',
    ]);
    expect(diagram.split('\n').slice(4)).toEqual([
      '    Client->>Server: (4) client resumes s0 over streamable with Last-Event-ID garbage-0 (garbage)',
      '    Server-->>Client: (4) 200',
      '    Note right of Server: (4) model expects 404 Last-Event-ID garbage-0 is not an event of this session',
      '    Wire-->>Client: (9) client receives a frame on r1 → {}',
      '    Note right of Server: (9) model expects the result of c1 next on r1',
    ]);
  });

  test('escaping: nothing Mermaid chokes on survives raw', () => {
    const escaped = escapeMermaid(nasty);
    expect(escaped.replace(/#\d+;/g, '')).not.toMatch(/[#;<>"&`%\\\n\r\u0000-\u001f]/);
    // every # starts an entity code
    expect(escaped.match(/#/g)!.length).toBe(escaped.match(/#\d+;/g)!.length);
    expect(escapeMermaid('')).toBe(' ');
    const diagram = sequenceDiagram([`client calls emit c1 over sse -> 200 ${nasty}`, nasty]);
    for (const line of diagram.split('\n').slice(4)) {
      expect(line).toMatch(/^ {4}(Client->>Server|Server-->>Client|Note over Client,Server): \(\d+\) /);
      expect(line.slice(line.indexOf(': ') + 2).replace(/#\d+;/g, '')).not.toMatch(/[#;<>]/);
    }
  });
});

describe('vitest reproduction', () => {
  const report = sampleReport();
  const failing = report.properties[2]!;

  test('contains the seed, the path, the property and the exact replay call; it is valid TypeScript', () => {
    const snippet = vitestReproduction(report, failing.id, failing.counterexample!, { adapter: 'src/candidates/sdk.ts', cwd: '/work/project' });
    expect(snippet).toContain("import { runSuite } from 'mcp-resume-spec/src/suite/run-suite.js';");
    expect(snippet).toContain('import startCandidate from "/work/project/src/candidates/sdk.ts";');
    expect(snippet).toContain('const ID = "order-preserved" as const;');
    expect(snippet).toContain('const SEED = 1234567;');
    expect(snippet).toContain('const PATH = "12:3:0:0";');
    expect(snippet).toContain('runSuite(candidate, { seed: SEED, path: PATH, only: [ID] })');
    expect(snippet).toContain("expect(result.properties.find(p => p.id === ID)!.status).toBe('fail');");
    const out = ts.transpileModule(snippet, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } });
    expect(out.diagnostics ?? []).toEqual([]);
  });

  test('deterministic counterexamples: seed -1 and their coverage/probe path, same call', () => {
    const snippet = vitestReproduction(report, 'unknown-cursor-rejected', report.properties[1]!.counterexample!, { url: 'http://127.0.0.1:3000' });
    expect(snippet).toContain('const SEED = -1;');
    expect(snippet).toContain('const PATH = "probe:garbage-cursor";');
    expect(snippet).toContain(
      'const candidate: CandidateTarget = { name: "@modelcontextprotocol/sdk", version: "1.32.2", url: "http://127.0.0.1:3000" };',
    );
    expect(snippet).not.toContain('startCandidate');
  });

  test('run for real (runSuite stubbed): starts the adapter, replays with seed and path, expects a fail, stops it', async () => {
    const counterexample: Counterexample = { steps: ['client initializes over streamable -> 200'], seed: 42, path: `coverage:17 ${nasty}` };
    const snippet = vitestReproduction(report, 'no-silent-loss', counterexample, { adapter: '/abs/adapter.ts', paths: { mcp: '/v2/mcp' } });
    const js = ts.transpileModule(snippet, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    const hooks: { before: Array<() => Promise<void>>; after: Array<() => Promise<void>>; tests: Array<() => Promise<void>> } = { before: [], after: [], tests: [] };
    const calls: Array<{ candidate: { url: string; name: string; paths?: unknown }; options: { seed: number; path: string; only: string[] } }> = [];
    const stops: string[] = [];
    const modules: Record<string, unknown> = {
      vitest: {
        beforeAll: (fn: () => Promise<void>) => hooks.before.push(fn),
        afterAll: (fn: () => Promise<void>) => hooks.after.push(fn),
        test: (_name: string, fn: () => Promise<void>) => hooks.tests.push(fn),
        expect,
      },
      'mcp-resume-spec/src/suite/run-suite.js': {
        runSuite: async (candidate: (typeof calls)[number]['candidate'], options: (typeof calls)[number]['options']) => {
          calls.push({ candidate, options });
          return { candidate, properties: [{ id: options.only[0], status: 'fail', runs: 1 }] };
        },
      },
      '/abs/adapter.ts': {
        default: async () => {
          const running = await startFixture();
          return { ...running, stop: async () => (stops.push(running.url), running.stop()) };
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
    await hooks.tests[0]!();
    await hooks.after[0]!();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.options).toEqual({ seed: 42, path: `coverage:17 ${nasty}`, only: ['no-silent-loss'] });
    expect(calls[0]!.candidate).toMatchObject({ name: 'fixture-http', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+/), paths: { mcp: '/v2/mcp' } });
    expect(stops).toEqual([calls[0]!.candidate.url]);
  });
});

describe('Markdown report', () => {
  test('summary table, one section per counterexample with trace, diagram, replay and vitest test', () => {
    const md = renderMarkdown(sampleReport(), { adapter: 'src/candidates/sdk.ts', cwd: '/work/project' });
    expect(md).toContain('# mcp-resume-spec check: @modelcontextprotocol/sdk 1.32.2\n');
    expect(md).toContain('| status | property | runs | reason |\n| --- | --- | ---: | --- |\n');
    expect(md).toContain('| PASS | `no-silent-loss` | 200 | every promised event reached the application |');
    expect(md).toContain('| **FAIL** | `order-preserved` | 57 | r1: seq 3 reached the application before seq 2 |');
    expect(md).toContain('| SKIP | `session-ids-secure` | 0 | the candidate serves no session IDs |');
    expect(md).toContain('### `unknown-cursor-rejected`\n');
    expect(md).toContain('### `order-preserved`\n');
    expect(blocks(md, 'mermaid')).toHaveLength(2);
    expect(blocks(md, 'mermaid')[1]).toBe(sequenceDiagram(sampleReport().properties[2]!.counterexample!.steps));
    expect(blocks(md, 'ts')).toHaveLength(2);
    expect(blocks(md, 'ts')[1]).toContain('const SEED = 1234567;');
    expect(blocks(md, 'text')[0]).toBe(
      '1. client initializes over streamable -> 200\n2. client calls emit c1 over streamable -> 200\n3. client resumes r1 over streamable with Last-Event-ID garbage (garbage) -> 200, a quiet stream',
    );
    expect(md).toContain('Replay: `mcp-resume-spec check --adapter src/candidates/sdk.ts --seed 1234567 --path 12:3:0:0`');
    expect(md).toContain(
      'Replay: `mcp-resume-spec check --adapter src/candidates/sdk.ts --path probe:garbage-cursor` (deterministic scenario probe:garbage-cursor, run on every check)',
    );
  });

  test('nasty strings: no raw HTML or table breakage outside code; code blocks cannot be closed early', () => {
    const md = renderMarkdown(nastyReport(), { url: 'http://127.0.0.1:1' });
    const text = prose(md);
    expect(text).not.toMatch(/<|[\u0000-\u0008\u000B-\u001F]/);
    expect(text).not.toMatch(/&(?!amp;|lt;|gt;|quot;)/);
    // every table row still has exactly 4 cells
    for (const row of text.split('\n').filter((l) => l.startsWith('| '))) {
      expect(row.replace(/\\\|/g, '').match(/\|/g), row).toHaveLength(5);
    }
    // the fences balance: 2 counterexamples x (trace, oracle, mermaid, ts)
    expect(blocks(md, 'text')).toHaveLength(4);
    expect(blocks(md, 'mermaid')).toHaveLength(2);
    expect(blocks(md, 'ts')).toHaveLength(2);
    expect(escapeMarkdown('a|b<c>&`d`*e*\n#')).toBe('a\\|b&lt;c&gt;&amp;\\`d\\`\\*e\\* \\#');
  });

  test('a code span around a replay command with backticks uses a longer delimiter', () => {
    const report: SuiteReport = {
      candidate: { name: 'x', url: 'http://127.0.0.1:1' },
      properties: [{ id: 'no-silent-loss', status: 'fail', runs: 1, counterexample: { steps: ['x'], seed: 1, path: '1:2' } }],
    };
    const md = renderMarkdown(report, { invocation: 'check --url `weird`' });
    expect(md).toContain('Replay: ``check --url `weird` --seed 1 --path 1:2``');
  });
});

describe('vitest reproduction: adapter paths', () => {
  test('a relative adapter without a cwd stays relative, with a note to adjust it', () => {
    const report = sampleReport();
    const snippet = vitestReproduction(report, 'order-preserved', report.properties[2]!.counterexample!, { adapter: 'candidates/mine.ts' });
    expect(snippet).toContain('// The adapter path below is relative to this file: adjust it to where you put the test.\nimport startCandidate from "./candidates/mine.ts";');
    const absolute = vitestReproduction(report, 'order-preserved', report.properties[2]!.counterexample!, { adapter: '/srv/mine.mjs', cwd: '/elsewhere' });
    expect(absolute).toContain('import startCandidate from "/srv/mine.mjs";');
    expect(absolute).not.toContain('relative to this file');
  });
});
