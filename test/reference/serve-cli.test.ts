/**
 * `mcp-resume-spec serve` as a user runs it: a child process that prints its URL, serves, and
 * exits 0 on SIGTERM; a bad flag exits 2 with a one-line reason.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { CheckClient, toolText } from '../../src/wire/index.js';
import { defer, useCleanup, withBound } from './helpers.js';

useCleanup();

/** The compiled CLI (dist/, built by test/global-setup.ts); test/pack/ runs it installed. */
const CLI = ['../../bin/mcp-resume-spec.js'].map((path) => fileURLToPath(new URL(path, import.meta.url)));
/** Generous on a loaded machine. */
const START_MS = 30_000;

function run(args: string[]): { child: ChildProcess; stdout: () => string; stderr: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [...CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  defer(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, stdout: () => out, stderr: () => err, exit };
}

test('serve prints its URL, serves a session, and exits 0 on SIGTERM', async () => {
  const proc = run(['serve', '--port', '0', '--policy', 'seed-003']);
  const url = await withBound(
    new Promise<string>((resolve, reject) => {
      const check = (): void => {
        const line = proc.stdout().split('\n')[0];
        if (proc.stdout().includes('\n')) resolve(line!);
      };
      proc.child.stdout!.on('data', check);
      proc.exit.then((code) => reject(new Error(`serve exited ${code}: ${proc.stderr()}`)));
    }),
    'the URL line',
    START_MS,
  );
  // The streamable endpoint, as `check --url` takes it.
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

  const client = new CheckClient({ baseUrl: url.slice(0, -'/mcp'.length), timeoutMs: 5000 });
  defer(() => client.close());
  const init = await client.initialize();
  expect(init.ok).toBe(true);
  const call = await (await client.callTool('emit', { label: 'cli', count: 2 })).response();
  expect(call.kind === 'response' && JSON.parse(toolText(call.message)!)).toEqual({ label: 'cli', executions: 1 });
  // An open stream must not keep the server from stopping.
  const standalone = await client.openStandalone();
  expect(standalone.kind).toBe('stream');

  proc.child.kill('SIGTERM');
  expect(await withBound(proc.exit, 'exit after SIGTERM', START_MS)).toBe(0);
  expect(proc.stdout().trim().split('\n')).toEqual([url]);
});

test('an unknown policy exits 2 with a one-line reason', async () => {
  const proc = run(['serve', '--policy', 'nope']);
  expect(await withBound(proc.exit, 'exit', START_MS)).toBe(2);
  const lines = proc.stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/unknown policy "nope"/);
  expect(proc.stdout()).toBe('');
});

test('a bad port exits 2', async () => {
  const proc = run(['serve', '--port', 'eighty']);
  expect(await withBound(proc.exit, 'exit', START_MS)).toBe(2);
  expect(proc.stderr().trim()).toMatch(/--port/);
});

test('--max-sessions bounds the store: past it the least recently used session answers 404', async () => {
  const proc = run(['serve', '--port', '0', '--max-sessions', '1', '--session-ttl', '0']);
  const url = await withBound(
    new Promise<string>((resolve, reject) => {
      proc.child.stdout!.on('data', () => {
        if (proc.stdout().includes('\n')) resolve(proc.stdout().split('\n')[0]!);
      });
      proc.exit.then((code) => reject(new Error(`serve exited ${code}: ${proc.stderr()}`)));
    }),
    'the URL line',
    START_MS,
  );
  const baseUrl = url.slice(0, -'/mcp'.length);
  const first = new CheckClient({ baseUrl, timeoutMs: 5000 });
  const second = new CheckClient({ baseUrl, timeoutMs: 5000 });
  defer(() => first.close());
  defer(() => second.close());
  expect((await first.initialize()).ok).toBe(true);
  expect((await second.initialize()).ok).toBe(true);
  expect((await first.callTool('emit', { label: 'gone', count: 0 })).answer).toMatchObject({ status: 404 });
  expect((await second.callTool('emit', { label: 'kept', count: 0 })).answer).toMatchObject({ status: 200 });
  proc.child.kill('SIGTERM');
  expect(await withBound(proc.exit, 'exit after SIGTERM', START_MS)).toBe(0);
});

test('a bad limit exits 2 naming the flag', async () => {
  const proc = run(['serve', '--session-ttl', 'soon']);
  expect(await withBound(proc.exit, 'exit', START_MS)).toBe(2);
  expect(proc.stderr().trim()).toMatch(/--session-ttl/);
});
