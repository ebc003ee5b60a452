/**
 * `.ci/run` installs what the suite needs beside `npm ci`, then runs `npm test`; when `npm ci` or an
 * install fails, it fails and stops the installs still running (with what they started) rather than
 * leaving them behind. Run from a copy in a temporary folder, with stand-ins for the ensure scripts
 * and for `npm`.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { runBounded, type BoundedRun } from '../../scripts/run-bounded.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let dir = '';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function startedPids(): number[] {
  const file = join(dir, 'pids');
  return existsSync(file) ? readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).map(Number) : [];
}

function npmRan(): string[] {
  const file = join(dir, 'ran');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
}

afterEach(() => {
  // Whatever the script under test left running is this test's to stop.
  for (const pid of startedPids()) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs a copy of `.ci/run` whose ensure scripts have the given bodies (each first records its pid
 * and that of a long child, as apt-get or pip would be) and whose `npm ci` exits `ciCode` once both
 * installs are under way (a bounded wait).
 */
async function ciRun(installs: Record<'redis' | 'python', string>, ciCode: number): Promise<BoundedRun> {
  dir = mkdtempSync(join(tmpdir(), 'ci-run-'));
  for (const sub of ['.ci', 'scripts', 'bin']) mkdirSync(join(dir, sub));
  copyFileSync(join(root, '.ci/run'), join(dir, '.ci/run'));
  for (const [name, body] of Object.entries(installs)) {
    writeFileSync(join(dir, `scripts/ensure-${name}.sh`), `sleep 300 &\nchild=$!\necho "$$ $child" >> "${dir}/pids"\n${body}\n`);
  }
  writeFileSync(
    join(dir, 'bin/npm'),
    [
      '#!/usr/bin/env bash',
      `echo "npm $*" >> "${dir}/ran"`,
      '[ "$1" = ci ] || exit 0',
      `for _ in $(seq 100); do [ "$(wc -w < "${dir}/pids" 2>/dev/null || echo 0)" -ge 4 ] && break; sleep 0.1; done`,
      ciCode === 0 ? 'exit 0' : `echo "npm ERR! ci failed" >&2; exit ${ciCode}`,
      '',
    ].join('\n'),
  );
  chmodSync(join(dir, 'bin/npm'), 0o755);
  return runBounded('bash', [join(dir, '.ci/run')], {
    cwd: dir,
    timeoutMs: 60_000,
    env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}` },
  });
}

/** Resolves once none of `pids` runs any more, or after a bound (signals take a moment on a loaded machine). */
async function gone(pids: number[]): Promise<number[]> {
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return pids.filter(alive);
}

test('npm ci fails: .ci/run exits non-zero, stops the installs it started beside it, and runs no tests', async () => {
  const run = await ciRun({ redis: 'wait', python: 'wait' }, 1);
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain('npm ERR! ci failed');
  expect(npmRan()).toEqual(['npm ci']);
  const pids = startedPids();
  expect(pids).toHaveLength(4);
  expect(await gone(pids)).toEqual([]);
}, 90_000);

test('an install fails: .ci/run exits non-zero with its cause, stops the other, and runs no tests', async () => {
  const run = await ciRun({ redis: 'kill "$child"; echo "ensure-redis: apt-get could not reach its source" >&2; exit 1', python: 'wait' }, 0);
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain('ensure-redis: apt-get could not reach its source');
  expect(npmRan()).toEqual(['npm ci']);
  expect(await gone(startedPids())).toEqual([]);
}, 90_000);

test('everything installs: .ci/run waits for the installs, then runs the README test command', async () => {
  const run = await ciRun({ redis: 'kill "$child"', python: 'kill "$child"' }, 0);
  expect(run.code).toBe(0);
  expect(npmRan()).toEqual(['npm ci', 'npm test']);
}, 90_000);
