/**
 * `.ci/run` installs what the suite needs beside `npm ci`; when `npm ci` fails, it stops those
 * installs (with what they started) and fails, rather than leaving them running. Run from a copy in
 * a temporary folder whose ensure scripts start a long child each, with an `npm` whose `ci` fails.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { runBounded } from '../../scripts/run-bounded.js';

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

afterEach(() => {
  // Whatever the script under test left running is this test's to stop.
  for (const pid of startedPids()) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('npm ci fails: .ci/run exits non-zero, stops the installs it started beside it, and runs no tests', async () => {
  dir = mkdtempSync(join(tmpdir(), 'ci-run-'));
  mkdirSync(join(dir, '.ci'));
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(root, '.ci/run'), join(dir, '.ci/run'));
  // Installs that take long, as apt-get and pip do: each records its pid and its child's.
  for (const name of ['redis', 'python']) {
    writeFileSync(join(dir, `scripts/ensure-${name}.sh`), `sleep 300 &\necho "$$ $!" >> "${dir}/pids"\nwait\n`);
  }
  // npm ci fails once both installs are under way (bounded), as a broken lockfile or registry would.
  writeFileSync(
    join(dir, 'bin/npm'),
    [
      '#!/usr/bin/env bash',
      `if [ "$1" != ci ]; then echo "npm $*" >> "${dir}/ran"; exit 0; fi`,
      `for _ in $(seq 100); do [ "$(wc -w < "${dir}/pids" 2>/dev/null || echo 0)" -ge 4 ] && break; sleep 0.1; done`,
      'echo "npm ERR! ci failed" >&2',
      'exit 1',
      '',
    ].join('\n'),
  );
  chmodSync(join(dir, 'bin/npm'), 0o755);
  const run = await runBounded('bash', [join(dir, '.ci/run')], {
    cwd: dir,
    timeoutMs: 60_000,
    env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}` },
  });
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain('npm ERR! ci failed');
  expect(existsSync(join(dir, 'ran'))).toBe(false);
  const pids = startedPids();
  expect(pids).toHaveLength(4);
  // Signals take a moment to land on a loaded machine: a bounded wait for every process to be gone.
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(pids.filter(alive)).toEqual([]);
}, 90_000);
