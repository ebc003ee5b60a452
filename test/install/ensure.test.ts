/**
 * An install that cannot reach its source says so with the installer's own line (scripts/ensure-*.sh),
 * not a generic "install python3". Each script runs from a copy in a temporary folder, so what it
 * makes or removes (`.venv-python/`) is that folder's, never the repository's.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { runBounded } from '../../scripts/run-bounded.js';
import { freeLoopbackPort } from '../../src/check-server/candidates/adapter.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const temporary: string[] = [];

afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder laid out as the repository, holding copies of `files`. */
function copyOf(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'ensure-'));
  temporary.push(dir);
  for (const file of files) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    copyFileSync(join(root, file), join(dir, file));
  }
  return dir;
}

/** Where `command -v` finds each tool on this machine's PATH. */
function located(tools: string[]): Map<string, string> {
  const found = spawnSync('bash', ['-c', 'for tool; do command -v "$tool" || echo; done', 'bash', ...tools], { encoding: 'utf8' });
  const paths = found.stdout.split('\n');
  return new Map(tools.flatMap((tool, i) => (paths[i] ? [[tool, paths[i]] as [string, string]] : [])));
}

const bash = located(['bash']).get('bash') ?? '/bin/bash';

describe('scripts/ensure-python.sh', () => {
  test("pip that cannot reach its index: the message says so with pip's own line, and no half-made environment is left", async () => {
    const dir = copyOf(['scripts/ensure-python.sh', 'examples/python/requirements.txt']);
    const port = await freeLoopbackPort(); // closed again: a connection there is refused
    const index = `http://127.0.0.1:${port}/simple`;
    // pip's configuration is this index alone: no config file, no PIP_* from this machine's setup.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PIP_')));
    const run = await runBounded(bash, [join(dir, 'scripts/ensure-python.sh')], {
      cwd: dir,
      timeoutMs: 240_000,
      env: { ...env, PIP_CONFIG_FILE: '/dev/null', PIP_INDEX_URL: index, PIP_NO_CACHE_DIR: '1' },
    });
    expect(run.code).toBe(1);
    const message = run.stderr.trim().split('\n').at(-1);
    expect(message).toMatch(
      new RegExp(`^ensure-python: .* could not be made: pip could not reach its index ${index.replace(/[.]/g, '\\.')} \\(.*Connection refused.*\\)$`),
    );
    expect(existsSync(join(dir, '.venv-python'))).toBe(false);
  }, 300_000);
});

describe('scripts/ensure-redis.sh', () => {
  test("apt-get that cannot reach its source: the message says so with apt's own line", async () => {
    const dir = copyOf(['scripts/ensure-redis.sh']);
    // The script's tools, and no redis-server: its PATH is a folder of links to them.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const tools = located(['apt-get', 'id', 'mktemp', 'rm', 'grep', 'tail']);
    for (const [tool, path] of tools) symlinkSync(path, join(bin, tool));
    // apt's own state in the folder (its lists, cache, locks and an empty dpkg status), and one
    // source, on a closed loopback port: nothing of this machine's apt is read or written.
    const port = await freeLoopbackPort();
    for (const sub of ['lists/partial', 'cache/archives/partial', 'sources.list.d']) mkdirSync(join(dir, 'apt', sub), { recursive: true });
    writeFileSync(join(dir, 'apt/status'), '');
    writeFileSync(join(dir, 'apt/sources.list'), `deb http://127.0.0.1:${port}/debian bookworm main\n`);
    writeFileSync(
      join(dir, 'apt/apt.conf'),
      [
        `Dir::Etc::SourceList "${dir}/apt/sources.list";`,
        `Dir::Etc::SourceParts "${dir}/apt/sources.list.d";`,
        `Dir::State::Lists "${dir}/apt/lists";`,
        `Dir::Cache "${dir}/apt/cache";`,
        `Dir::State::status "${dir}/apt/status";`,
        '',
      ].join('\n'),
    );
    const run = await runBounded(bash, [join(dir, 'scripts/ensure-redis.sh')], {
      cwd: dir,
      timeoutMs: 120_000,
      env: { HOME: dir, PATH: bin, APT_CONFIG: join(dir, 'apt/apt.conf') },
    });
    expect(run.code).toBe(1);
    const message = run.stderr.trim().split('\n').at(-1);
    // Only root installs packages: elsewhere the script says that, and never reaches apt-get.
    if (process.getuid?.() !== 0) expect(message).toMatch(/^ensure-redis: redis-server is missing and only root can install it/);
    else if (!tools.has('apt-get')) expect(message).toMatch(/^ensure-redis: redis-server is missing and there is no apt-get/);
    else
      expect(message).toMatch(new RegExp(`^ensure-redis: redis-server is missing and apt-get could not reach its source \\(.*127\\.0\\.0\\.1:${port}.*\\)$`));
  }, 180_000);
});
