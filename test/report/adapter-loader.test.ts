import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode } from '../cli/run-cli.js';
import { afterAll, describe, expect, test } from 'vitest';
import { acceptsConnections } from '../../src/check-server/candidates/adapter.js';
import { loadAdapter } from '../../src/loader/adapter-loader.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const fixture = (name: string): string => join(fixtures, name);
const counters = globalThis as { badShapeStops?: number; lateStops?: number };

/** The error `promise` rejects with; fails if it resolves. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

function expectOneLine(error: Error, pattern: RegExp): void {
  expect(error).toBeInstanceOf(Error);
  expect(error.message).not.toContain('\n');
  expect(error.message).toMatch(pattern);
}

describe('loadAdapter (inside vitest)', () => {
  test('a .ts adapter loads, starts a server on 127.0.0.1, and stops it', async () => {
    const adapter = await loadAdapter(fixture('http-adapter.ts'));
    expect(adapter.path).toBe(fixture('http-adapter.ts'));
    const candidate = await adapter.start();
    expect(candidate.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/); // trailing slash removed
    expect(candidate).toMatchObject({ name: 'fixture-http', version: '0.0.1' });
    expect(await (await fetch(candidate.url)).text()).toBe('fixture adapter');
    await candidate.stop();
    expect(await acceptsConnections(Number(new URL(candidate.url).port))).toBe(false);
  });

  test('a .mjs adapter, by a path relative to cwd', async () => {
    const adapter = await loadAdapter('fixtures/http-adapter.mjs', { cwd: fileURLToPath(new URL('.', import.meta.url)) });
    const candidate = await adapter.start();
    expect(await (await fetch(candidate.url)).text()).toBe('fixture adapter (js)');
    expect(candidate.name).toBeUndefined();
    await candidate.stop();
  });

  test('relative paths resolve against options.cwd, else process.cwd()', async () => {
    expect((await loadAdapter('test/report/fixtures/http-adapter.ts', { cwd: root })).path).toBe(fixture('http-adapter.ts'));
    const error = await failure(loadAdapter('no/such/adapter.ts'));
    expect(error.message).toBe(`adapter ${join(process.cwd(), 'no/such/adapter.ts')}: no such file`);
  });

  test.each([
    ['a missing file', 'fixtures/nope.ts', /^adapter \/.*\/nope\.ts: no such file$/],
    [
      'an unsupported extension',
      'fixtures/adapter.py',
      /^adapter \/.*\/adapter\.py: unsupported extension "\.py"; expected one of \.ts, \.mts, \.cts, \.js, \.mjs, \.cjs$/,
    ],
    [
      'a module that throws on import',
      'fixtures/throws-on-import.ts',
      /^adapter \/.*\/throws-on-import\.ts: failed to load: boom on import: cannot read configuration$/,
    ],
    [
      'a default export that is not a function',
      'fixtures/default-not-function.ts',
      /: the default export must be a function that starts the candidate and resolves to \{url, stop\}; got an object with keys url, port$/,
    ],
    ['no default export', 'fixtures/no-default.ts', /: the default export must be a function .*; got no default export$/],
  ])('%s: a one-line error', async (_name, path, pattern) => {
    expectOneLine(await failure(loadAdapter(path, { cwd: fileURLToPath(new URL('.', import.meta.url)) })), pattern);
  });

  test('a directory: a one-line error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adapter-dir-'));
    try {
      mkdirSync(join(dir, 'candidate.ts'));
      expectOneLine(await failure(loadAdapter(join(dir, 'candidate.ts'))), /candidate\.ts: not a file$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('start() rejects: a one-line error with the first line of its reason', async () => {
    const adapter = await loadAdapter(fixture('start-rejects.ts'));
    expectOneLine(await failure(adapter.start()), /start-rejects\.ts: start\(\) failed: listen EADDRINUSE: address already in use 127\.0\.0\.1:3000$/);
  });

  test('start() resolves without a string url: a one-line error, and what it started is stopped', async () => {
    counters.badShapeStops = 0;
    const adapter = await loadAdapter(fixture('bad-shape.ts'));
    expectOneLine(
      await failure(adapter.start()),
      /bad-shape\.ts: start\(\) must resolve to \{url: string, stop: function\}; got an object with keys url, stop$/,
    );
    expect(counters.badShapeStops).toBe(1);
  });

  test('start() resolves without stop: a one-line error', async () => {
    const adapter = await loadAdapter(fixture('no-stop.ts'));
    expectOneLine(await failure(adapter.start()), /no-stop\.ts: start\(\) must resolve to \{url: string, stop: function\}; got an object with keys url$/);
  });

  test('start() is bounded; a candidate that starts too late is stopped', async () => {
    counters.lateStops = 0;
    const adapter = await loadAdapter(fixture('hangs.ts'), { timeoutMs: 100 });
    const started = Date.now();
    expectOneLine(await failure(adapter.start()), /hangs\.ts: start\(\) did not resolve within 100 ms$/);
    expect(Date.now() - started).toBeLessThan(900);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(counters.lateStops).toBe(1);
  });
});

/** Runs `node bin/run-ts.js test/report/fixtures/load-adapter.ts MODULE...`: ts-node's ESM loader, as the CLI from source. */
function loadThroughTsNode(...modulePaths: string[]) {
  return runNode(['bin/run-ts.js', 'test/report/fixtures/load-adapter.ts', ...modulePaths], 60_000);
}

/** A candidate in `format`, answering `body` on every request. */
function candidateSource(format: 'ts-esm' | 'ts-cjs' | 'js-esm' | 'js-cjs', body: string): string {
  const serve = `
  const server = createServer((_request, response) => response.end(${JSON.stringify(body)}));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = server.address()${format.startsWith('ts') ? ' as AddressInfo' : ''};
  return { url: 'http://127.0.0.1:' + port, stop: () => new Promise((resolve) => server.close(() => resolve(undefined))) };`;
  switch (format) {
    // TypeScript the same in either scope: the scope decides whether it is compiled to ESM or CommonJS.
    case 'ts-esm':
    case 'ts-cjs':
      return `import { createServer } from 'node:http';\nimport type { AddressInfo } from 'node:net';\nconst typed: string = 'typed';\nexport default async function start(): Promise<{ url: string; stop: () => Promise<unknown> }> {${serve}\n}\n`;
    case 'js-esm':
      return `import { createServer } from 'node:http';\nexport default async function start() {${serve}\n}\n`;
    case 'js-cjs':
      return `const { createServer } = require('node:http');\nmodule.exports = async function start() {${serve}\n};\n`;
  }
}

/** Writes `files` (name to source) into a fresh package `dir` with `manifest` as its package.json. */
function fixturePackage(dir: string, manifest: object, files: Record<string, string>): string[] {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  return Object.keys(files)
    .filter((name) => name.startsWith('candidate.'))
    .map((name) => join(dir, name));
}

/** The three lines load-adapter.ts prints per module, in order, with each module's own body. */
function expectLoaded(stdout: string, bodies: string[]): void {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(3 * bodies.length);
  bodies.forEach((body, i) => {
    expect(lines[3 * i]).toMatch(/^url http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[3 * i + 1]).toBe(`body ${body}`);
    expect(lines[3 * i + 2]).toBe('stopped');
  });
}

describe('loadAdapter through ts-node (as bin/mcp-resume-spec.js runs it)', () => {
  const outside = mkdtempSync(join(tmpdir(), 'adapter-outside-'));
  afterAll(() => rmSync(outside, { recursive: true, force: true }));

  test('a .ts adapter in the project loads, starts, answers and stops', async () => {
    const run = await loadThroughTsNode('test/report/fixtures/http-adapter.ts');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^url http:\/\/127\.0\.0\.1:\d+\nbody fixture adapter\nstopped\n$/);
  });

  test('outside the project: .mts, and .ts under a "type": "module" package.json, load', async () => {
    copyFileSync(fixture('http-adapter.ts'), join(outside, 'candidate.mts'));
    mkdirSync(join(outside, 'esm'));
    writeFileSync(join(outside, 'esm', 'package.json'), '{"type": "module"}\n');
    copyFileSync(fixture('http-adapter.ts'), join(outside, 'esm', 'candidate.ts'));
    for (const path of [join(outside, 'candidate.mts'), join(outside, 'esm', 'candidate.ts')]) {
      const run = await loadThroughTsNode(path);
      expect(run.stderr, path).toBe('');
      expect(run.stdout, path).toMatch(/^url http:\/\/127\.0\.0\.1:\d+\nbody fixture adapter\nstopped\n$/);
    }
  });

  test('a package without "type": "module" (CommonJS scope, its own tsconfig): .ts, .cts, .mts, .js, .cjs, .mjs all load', async () => {
    const dir = join(outside, 'commonjs-package');
    const paths = fixturePackage(
      dir,
      { name: 'commonjs-candidate', version: '1.0.0' },
      {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'ES2022', strict: true } }),
        'candidate.ts': candidateSource('ts-cjs', 'commonjs .ts'),
        'candidate.cts': candidateSource('ts-cjs', 'commonjs .cts'),
        'candidate.mts': candidateSource('ts-esm', 'commonjs .mts'),
        'candidate.js': candidateSource('js-cjs', 'commonjs .js'),
        'candidate.cjs': candidateSource('js-cjs', 'commonjs .cjs'),
        'candidate.mjs': candidateSource('js-esm', 'commonjs .mjs'),
      },
    );
    const run = await loadThroughTsNode(...paths);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expectLoaded(
      run.stdout,
      ['.ts', '.cts', '.mts', '.js', '.cjs', '.mjs'].map((ext) => `commonjs ${ext}`),
    );
  });

  test('a package with "type": "module" (no tsconfig): .ts, .cts, .mts, .js, .cjs, .mjs all load', async () => {
    const dir = join(outside, 'module-package');
    const paths = fixturePackage(
      dir,
      { name: 'module-candidate', version: '1.0.0', type: 'module' },
      {
        'candidate.ts': candidateSource('ts-esm', 'module .ts'),
        'candidate.cts': candidateSource('ts-cjs', 'module .cts'),
        'candidate.mts': candidateSource('ts-esm', 'module .mts'),
        'candidate.js': candidateSource('js-esm', 'module .js'),
        'candidate.cjs': candidateSource('js-cjs', 'module .cjs'),
        'candidate.mjs': candidateSource('js-esm', 'module .mjs'),
      },
    );
    const run = await loadThroughTsNode(...paths);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expectLoaded(
      run.stdout,
      ['.ts', '.cts', '.mts', '.js', '.cjs', '.mjs'].map((ext) => `module ${ext}`),
    );
  });

  test("a .ts in a CommonJS scope importing a sibling .ts as './body.js' (as TypeScript under NodeNext writes it) loads", async () => {
    const [path] = fixturePackage(
      join(outside, 'commonjs-nodenext'),
      { name: 'commonjs-nodenext', version: '1.0.0', type: 'commonjs' },
      {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2022', strict: true } }),
        'body.ts': "export const body: string = 'imported through ./body.js';\n",
        'candidate.ts': candidateSource('ts-cjs', 'unused')
          .replace("import type { AddressInfo } from 'node:net';", "import type { AddressInfo } from 'node:net';\nimport { body } from './body.js';")
          .replace('response.end("unused")', 'response.end(body)'),
      },
    );
    const run = await loadThroughTsNode(path!);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expectLoaded(run.stdout, ['imported through ./body.js']);
  });

  test('a .ts that does not compile in a CommonJS scope: a one-line error', async () => {
    const [path] = fixturePackage(join(outside, 'broken'), { name: 'broken' }, { 'candidate.ts': 'export default async function (: {\n' });
    const run = await loadThroughTsNode(path!);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/candidate\.ts: failed to load: /);
  });

  test.each([
    ['test/report/fixtures/throws-on-import.ts', /throws-on-import\.ts: failed to load: boom on import: cannot read configuration$/],
    ['test/report/fixtures/default-not-function.ts', /default export must be a function/],
    ['test/report/fixtures/start-rejects.ts', /start\(\) failed: listen EADDRINUSE/],
    ['test/report/fixtures/missing.ts', /missing\.ts: no such file$/],
  ])('%s: exit 2 with a one-line reason', async (path, pattern) => {
    const run = await loadThroughTsNode(path);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr.trim()).toMatch(pattern);
  });
});
