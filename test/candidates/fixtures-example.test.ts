/**
 * The whole-server example (examples/sdk-server/server.ts, which docs/contract.md embeds and the
 * README excerpts: test/docs-examples.test.ts) runs as written: transpiled, run with plain Node
 * against the package as the tests' build has it (`mcp-resume-spec/fixtures` and `/event-store`
 * resolve to dist/ by the package's own `exports`); the server it starts answers the contract of
 * docs/contract.md over real HTTP, an unplaceable cursor 404, and passes every property of the
 * suite under both transports.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, expect, test } from 'vitest';
import { parseTargetUrl } from '../../src/cli/target-url.js';
import { startLocalRedis, type LocalRedis } from '../../src/check-server/candidates/local-redis.js';
import { runSuite } from '../../src/check-server/run-suite.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Inside the package but not under node_modules (so its name resolves to itself), ignored by git; one folder per run.
const folder = `${root}scratch/fixtures-example-${process.pid}`;
const children: ChildProcess[] = [];
let redis: LocalRedis | undefined;

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  await redis?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** The example as a user copies it. */
const exampleCode = (): string => readFileSync(`${root}examples/sdk-server/server.ts`, 'utf8');

interface Frame {
  id?: string;
  message?: Record<string, unknown>;
}

async function post(url: string, body: unknown, session?: string): Promise<{ status: number; session: string | null; frames: Frame[] }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  const frames = text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const frame: Frame = {};
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('id:')) frame.id = line.slice(3).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trim());
      }
      if (data.join('') !== '') frame.message = JSON.parse(data.join('\n')) as Record<string, unknown>;
      return frame;
    });
  return { status: response.status, session: response.headers.get('mcp-session-id'), frames };
}

const messages = (frames: Frame[]): Array<Record<string, unknown>> => frames.flatMap((f) => (f.message ? [f.message] : []));
const textOf = (result: unknown): unknown => JSON.parse((result as { content: Array<{ text: string }> }).content[0]!.text);

let url: string;

/** Starts the example as a user runs it (`REDIS_URL` given or not); resolves with the URL it prints. */
async function startExample(redisUrl?: string): Promise<string> {
  mkdirSync(folder, { recursive: true });
  const js = ts.transpileModule(exampleCode(), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  writeFileSync(`${folder}/server.mjs`, js);
  const { REDIS_URL: _ignored, ...env } = process.env;
  const started = spawn(process.execPath, [`${folder}/server.mjs`], {
    cwd: root,
    env: { ...env, PORT: '0', ...(redisUrl ? { REDIS_URL: redisUrl } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(started);
  let stderr = '';
  started.stderr!.on('data', (d) => (stderr += d));
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the example printed no URL; stderr: ${stderr}`)), 20_000);
    started.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n')[0]!.trim());
      }
    });
    started.once('exit', (code) => reject(new Error(`the example exited ${code}; stderr: ${stderr}`)));
  });
}

/** Every property passes, both transports judged. */
async function passesEverything(url: string, name: string): Promise<void> {
  const at = parseTargetUrl(url);
  const report = await runSuite({ name, url: at.base, paths: at.paths }, { runs: 20, seed: 20261202, timeoutMs: 3000 });
  expect(report.abilities?.transports.sort()).toEqual(['sse', 'streamable']);
  for (const p of report.properties) {
    expect(p.status, `${p.id}: ${p.reason}`).toBe('pass');
    expect(p.runs, p.id).toBeGreaterThan(0);
  }
}

test('the whole-server example starts a server that serves the contract', async () => {
  url = await startExample();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

  const capabilities = { roots: { listChanged: true } };
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 't', version: '0' } },
  });
  expect(init.status).toBe(200);
  const session = init.session!;
  expect(session).toBeTruthy();
  expect((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);

  const list = messages((await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session)).frames);
  const tools = (list[0]!.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
  expect(tools.sort()).toEqual(['emit', 'emit_unsolicited', 'session_info']);

  const label = `example-${process.pid}`;
  const emit = await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'emit', arguments: { label, count: 2 } } }, session);
  // Every frame of the call's stream has an event ID (the event store), the priming event first.
  expect(emit.frames.every((f) => typeof f.id === 'string' && f.id !== '')).toBe(true);
  const sent = messages(emit.frames);
  expect(sent.slice(0, 2)).toEqual([1, 2].map((seq) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { label, seq } } })));
  expect(textOf(sent[2]!.result)).toEqual({ label, executions: 1 });

  const info = messages((await post(url, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'session_info', arguments: {} } }, session)).frames);
  expect(textOf(info[0]!.result)).toEqual({ protocolVersion: '2025-11-25', clientCapabilities: capabilities });

  // An unknown session is answered 404 by the example's routing.
  expect((await post(url, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, 'no-such-session')).status).toBe(404);

  // A cursor no store of that session can place: 404 (the SDK's transport alone answers 400).
  const resume = await fetch(url, {
    headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': session, 'last-event-id': 'not-an-event' },
    signal: AbortSignal.timeout(10_000),
  });
  await resume.body?.cancel();
  expect(resume.status).toBe(404);
}, 60_000);

test('the whole-server example passes every property, both transports judged', async () => {
  await passesEverything(url, 'examples/sdk-server');
}, 180_000);

test('with REDIS_URL, its events in Redis Streams, it passes every property too', async () => {
  const redisUrl = process.env.REDIS_URL ?? (redis = await startLocalRedis()).url;
  const withRedis = await startExample(redisUrl);
  await passesEverything(withRedis, 'examples/sdk-server with Redis');
}, 180_000);
