// @vitest-environment jsdom
/**
 * The client Markdown report on a small hand-made report: its Mermaid diagram parses with
 * Mermaid's own parser (untrusted text from the wire included), the failure is marked, and the
 * vitest reproduction is valid TypeScript that replays through the package's API.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { AppEntry, WireEntry } from '../../properties/client/history.js';
import { clientSequenceDiagram, renderClientMarkdown } from '../../src/check-client/markdown.js';
import { entryParts, renderEntry, type ClientReport } from '../../src/check-client/report.js';
import { escapeMermaid } from '../../src/report/markdown.js';

const nasty = 'a;b#c<d>"e`f%g\\h&i\nj';
const wire: WireEntry[] = [
  {
    kind: 'request',
    at: 1,
    exchange: 1,
    origin: 'client',
    method: 'POST',
    path: '/mcp',
    messages: [{ method: 'tools/call', id: 2, params: { name: 'emit' } }],
    sessionId: 'abcdef0123456789',
  },
  { kind: 'response', at: 2, exchange: 1, status: 200, stream: true, messages: [] },
  { kind: 'frame', at: 3, exchange: 1, id: 'http:x-e2', data: '', message: { method: 'notifications/message', params: { data: { label: nasty, seq: 1 } } } },
  { kind: 'fault', at: 5, exchange: 1, fault: 'cut', detail: 'cut POST /mcp tools/call #1 after 2 frame(s)' },
  { kind: 'end', at: 6, exchange: 1, cut: true },
  { kind: 'request', at: 7, exchange: 2, origin: 'checker', method: 'DELETE', path: '/mcp', messages: [] },
];
const app: AppEntry[] = [
  { kind: 'call', at: 0, call: 1, name: 'emit', args: { label: nasty, count: 1 } },
  { kind: 'notification', at: 4, method: 'notifications/message', params: { data: { label: nasty, seq: 1 } } },
  { kind: 'notification', at: 8, method: 'notifications/message', params: { data: { label: nasty, seq: 1 } } },
  { kind: 'settled', at: 9, call: 1, outcome: 'rejected', error: nasty },
];
const report: ClientReport = {
  client: { name: 'mine' },
  timeoutMs: 300,
  scenarios: [],
  properties: [
    {
      id: 'client-delivers-exactly-once',
      status: 'fail',
      runs: 1,
      level: 'policy',
      statement: 'every notification … exactly once',
      reason: `notification seq 1 of "${nasty}" reached the application 2 times`,
      counterexample: {
        scenario: 'fc:7:3:1',
        source: 'fast-check',
        seed: 7,
        path: '3:1',
        transport: 'streamable',
        policy: 'reference',
        faults: ['cut'],
        calls: [1],
        at: 8,
        history: { transport: 'streamable', wire, app, boundMs: 1400 },
      },
    },
    { id: 'client-bounded-wait', status: 'pass', runs: 1, level: 'should', statement: 'bounded' },
  ],
};

describe('client Markdown report', () => {
  const md = renderClientMarkdown(report, 'mcp-resume-spec check-client --adapter ./my-client.ts', { adapter: './my-client.ts', cwd: '/work/project' });

  it('draws a sequence diagram Mermaid parses, the failure marked', async () => {
    const blocks = [...md.matchAll(/^(`{3,})mermaid\n([\s\S]*?)\n\1$/gm)].map((m) => m[2]!);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatch(
      /App->>Client: callTool emit[\s\S]*Note over Proxy: cut[\s\S]*Proxy->>Server: DELETE \/mcp[\s\S]*Client-->>App: notification[\s\S]*Note over App,Server: ✗ the property fails here/,
    );
    const mermaid = (await import('mermaid')).default;
    mermaid.initialize({ startOnLoad: false });
    await expect(mermaid.parse(blocks[0]!)).resolves.toMatchObject({ diagramType: 'sequence' });
  }, 60_000);

  it('gives the replay command and a vitest reproduction that compiles', () => {
    expect(md).toContain('Replay: `mcp-resume-spec check-client --adapter ./my-client.ts --seed 7 --path 3:1`');
    const snippet = /```ts\n([\s\S]*?)\n```/.exec(md)![1]!;
    // Relative to where the check ran, as the command line gave it: a CI artifact names no machine's folders.
    expect(snippet).toContain(
      '// The adapter path below is relative to the directory check-client ran in: adjust it to where you put this test.\nimport makeFactory from "./my-client.ts";',
    );
    expect(snippet).toContain('seed: SEED, path: PATH, only: [ID]');
    const out = ts.transpileModule(snippet, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    expect(out.diagnostics ?? []).toEqual([]);
  });

  it('imports an adapter given by an absolute path relative to the directory the check ran in', () => {
    const inside = renderClientMarkdown(report, 'x', { adapter: '/tmp/newuser-client/adapters/resend.mjs', cwd: '/tmp/newuser-client' });
    expect(inside).toContain('import makeFactory from "./adapters/resend.mjs";');
    expect(inside).not.toContain('/tmp/newuser-client');
    // Outside that directory: as given (shared with check's report, test/report/markdown.test.ts).
    const beside = renderClientMarkdown(report, 'x', { adapter: '/tmp/other/resend.mjs', cwd: '/tmp/newuser-client' });
    expect(beside).toContain('import makeFactory from "/tmp/other/resend.mjs";');
  });

  it("draws each entry from its parts, not from its trace line's words", () => {
    // Words that look like a trace line's parts: a speaker, an exchange number.
    const settled: AppEntry = { kind: 'settled', at: 1, call: 3, outcome: 'rejected', error: 'server → gave up [#7]' };
    const frame: WireEntry = { kind: 'frame', at: 2, exchange: 4, id: 'e9', data: '', message: { method: 'app: ping' } };
    expect(renderEntry(settled)).toBe('app: call 3 rejected: server → gave up [#7]');
    expect(renderEntry(frame)).toBe('  frame id e9: {"method":"app: ping"} [#4]');
    expect(entryParts(frame)).toEqual({ by: '  frame', what: ' id e9: {"method":"app: ping"}', exchange: 4 });
    const lines = clientSequenceDiagram({ transport: 'streamable', wire: [frame], app: [settled], boundMs: 100 }).split('\n');
    expect(lines).toContain('    Client-->>App: call 3 rejected: server → gave up [#35;7]');
    expect(lines).toContain(`    Proxy-->>Client: ${escapeMermaid('id e9: {"method":"app: ping"}')}`);
  });
});
