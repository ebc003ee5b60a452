/**
 * The package as a user gets it: `npm pack` of the dist/ that test/global-setup.ts built (the same
 * `tsc -p tsconfig.build.json` that `prepack` runs), the tarball installed
 * into an empty folder, and the installed CLI run there: `--version`, the reference server its
 * `serve` starts checked by its `check --url …/mcp`, and TypeScript adapters in a CommonJS scope
 * and as `.mts` (importing the library). Nothing here runs the repository's sources.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { propertyIds } from '../../model/property-ids.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const children = new Set<ChildProcess>();

/** Kills `child` and whatever it started (each child leads its own process group). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` in `cwd`; rejects if it has not finished within `timeoutMs` (and kills it). */
function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      killGroup(child);
      reject(new Error(`${command} ${args.join(' ')} did not finish in ${timeoutMs} ms; stderr: ${stderr.slice(-500)}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The installed CLI through npx, as a user runs it (`--no`: never fetched from the registry). */
function npx(app: string, args: string[], timeoutMs = 120_000): Promise<Run> {
  return run('npx', ['--no', '--', 'mcp-resume-spec', ...args], app, timeoutMs);
}

/** A CommonJS-scope TypeScript adapter that starts the installed `serve` as a child process. */
const commonJsAdapter = `import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';

export default async function start(): Promise<{ url: string; stop: () => Promise<void>; name: string }> {
  const bin: string = join(dirname(require.resolve('mcp-resume-spec/package.json')), 'bin', 'mcp-resume-spec.js');
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      if (out.includes('\\n')) resolve(out.split('\\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error('serve exited ' + code)));
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { url: url.replace(/\\/mcp$/, ''), name: 'commonjs-ts-adapter', stop };
}
`;

/** An ES module TypeScript adapter that serves the reference server through the library API. */
const esmAdapter = `import { createReferenceServer } from 'mcp-resume-spec';

export default async function start(): Promise<{ url: string; stop: () => Promise<void>; name: string }> {
  const server = await createReferenceServer({ policy: 'reference' });
  return { url: server.url, name: 'esm-mts-adapter', stop: () => server.close() };
}
`;

describe('the packed package, installed', () => {
  const work = mkdtempSync(join(tmpdir(), 'mcp-resume-spec-pack-'));
  const app = join(work, 'app');

  beforeAll(async () => {
    const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], root, 300_000);
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBe(`mcp-resume-spec-${version}.tgz`);
    mkdirSync(app);
    // No "type": "module": the CommonJS scope most TypeScript projects are.
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball!)], app, 300_000);
    expect(installed.code, installed.stderr).toBe(0);
  }, 600_000);

  afterAll(() => {
    for (const child of children) killGroup(child);
    rmSync(work, { recursive: true, force: true });
  });

  test('the tarball holds the build, not the sources or tests', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)).map((f) => `${e.name}/${f}`) : [e.name]));
    const shipped = files(join(app, 'node_modules', 'mcp-resume-spec'));
    expect(shipped).toContain('bin/mcp-resume-spec.js');
    expect(shipped).toContain('dist/src/cli/run.js');
    expect(shipped).toContain('dist/src/index.d.ts');
    // The documents the CLI's reports and --help point to, and the contract's examples (Python; the SDK server the docs embed).
    expect(shipped).toEqual(
      expect.arrayContaining([
        'docs/contract.md',
        'docs/properties.md',
        'docs/claims.md',
        'docs/clients.md',
        'examples/python/server.py',
        'examples/sdk-server/server.ts',
      ]),
    );
    expect(
      shipped.filter((f) => /^(src|test|scripts|model|properties)\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('examples/'))),
    ).toEqual([]);
  });

  test('the library entry points import, with what they export', async () => {
    const script = `for (const entry of ['mcp-resume-spec', 'mcp-resume-spec/event-store']) console.log(entry, Object.keys(await import(entry)).sort().join(' '));`;
    const result = await run(process.execPath, ['--input-type=module', '-e', script], app, 60_000);
    expect(result.stderr).toBe('');
    const [main, eventStore] = result.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
    expect(main).toEqual(expect.arrayContaining(['mcp-resume-spec', 'runSuite', 'createReferenceServer', 'propertyIds', 'renderJson']));
    expect(eventStore).toEqual(expect.arrayContaining(['mcp-resume-spec/event-store', 'MemoryEventStore', 'RedisEventStore']));
  });

  test('npx mcp-resume-spec --version prints the package version', async () => {
    const result = await npx(app, ['--version']);
    expect(result.stderr).toBe('');
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  test('the installed check passes the reference server the installed serve started, at the URL serve printed', async () => {
    // The installed bin run directly (not through npx), so that the signal reaches the server itself.
    const bin = join(app, 'node_modules', '.bin', 'mcp-resume-spec');
    const serve = spawn(process.execPath, [bin, 'serve', '--port', '0'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(serve);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error('serve printed no URL within 60 s')), 60_000);
        serve.stdout!.on('data', (chunk: Buffer) => {
          out += chunk;
          if (out.includes('\n')) {
            clearTimeout(timer);
            resolve(out.split('\n')[0]!);
          }
        });
        serve.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const check = await npx(app, ['check', '--url', url, '--runs', '3', '--seed', '1', '--json']);
      expect(check.code, check.stderr).toBe(0);
      // Progress on stderr (plain lines off a terminal), the report alone on stdout.
      expect(check.stderr).toMatch(/^interleavings 3\/3 \(/m);
      const report = JSON.parse(check.stdout) as {
        tool: { version: string };
        status: string;
        candidate: { url: string };
        properties: { id: string; status: string }[];
      };
      expect(report.tool.version).toBe(version);
      expect(report.status).toBe('pass');
      expect(report.candidate.url).toBe(url.replace(/\/mcp$/, ''));
      expect(report.properties).toHaveLength(propertyIds.length);
      expect(report.properties.filter((p) => p.status !== 'pass')).toEqual([]);
    } finally {
      const exited = serve.exitCode !== null || serve.signalCode !== null ? Promise.resolve() : new Promise((resolve) => serve.once('exit', resolve));
      killGroup(serve, 'SIGTERM');
      const timer = setTimeout(() => killGroup(serve), 10_000);
      await exited;
      clearTimeout(timer);
      children.delete(serve);
    }
  });

  test('TypeScript adapters load installed: .ts in a CommonJS scope, and .mts importing the library', async () => {
    writeFileSync(join(app, 'adapter.ts'), commonJsAdapter);
    writeFileSync(join(app, 'adapter.mts'), esmAdapter);
    for (const [file, name] of [
      ['adapter.ts', 'commonjs-ts-adapter'],
      ['adapter.mts', 'esm-mts-adapter'],
    ] as const) {
      const check = await npx(app, ['check', '--adapter', `./${file}`, '--runs', '1', '--seed', '1', '--no-coverage', '--json']);
      expect(check.code, `${file}: ${check.stderr}`).toBe(0);
      const report = JSON.parse(check.stdout) as { candidate: { name: string }; properties: { status: string }[] };
      expect(report.candidate.name).toBe(name);
      expect(report.properties.filter((p) => p.status === 'fail')).toEqual([]);
    }
  });
});
