/**
 * Loads a candidate adapter module for `mcp-resume-spec check --adapter MODULE`.
 *
 * The module's default export starts a candidate: `() => Promise<{url, stop, name?, version?, headers?}>`
 * (see `src/check-server/candidates/adapter.ts`). Every module format loads, whatever the package around it:
 * `.js`/`.mjs`/`.cjs` natively; `.mts`, and `.ts` under a `"type": "module"` package.json, through
 * ts-node's ESM loader, registered here on first need; `.cts`, and `.ts` in a CommonJS scope (no
 * such package.json, as in most TypeScript projects), through ts-node's CommonJS registration, since
 * its ESM loader does not compile TypeScript that Node classifies as CommonJS. TypeScript is
 * transpiled only (no type check), with the nearest tsconfig.json above the module. Under vitest,
 * vite compiles TypeScript itself and nothing is registered.
 *
 * Every way this can go wrong becomes an `Error` with a one-line message naming the module, which
 * the CLI prints and turns into exit status 2.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';

/** A started candidate, as the loader hands it to the suite. */
export interface StartedCandidate {
  /** Base URL without a trailing slash. */
  url: string;
  /** Stops the candidate; bounded by the loader's timeout. */
  stop: () => Promise<void>;
  name?: string;
  version?: string;
  /** Headers to send with every request, as the adapter gave them (checked by the client). */
  headers?: Record<string, string>;
}

/** A loaded adapter: `start()` is the module's default export, checked and bounded. */
export interface LoadedAdapter {
  /** The absolute path the module was loaded from. */
  path: string;
  start: () => Promise<StartedCandidate>;
}

export interface LoadAdapterOptions {
  /** What a relative `modulePath` is resolved against (default `process.cwd()`). */
  cwd?: string;
  /** Bound of `start()` and of `stop()`, ms (default 30000). */
  timeoutMs?: number;
}

/** The extensions `--adapter` accepts. */
const adapterExtensions = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'] as const;

const defaultTimeoutMs = 30_000;

function firstLine(error: unknown): string {
  // Errors from ts-node's loader thread arrive as plain objects, some without a prototype.
  const text = (error as { message?: unknown } | null)?.message;
  const message = typeof text === 'string' ? text : typeof error === 'string' ? error : inspect(error, { breakLength: Infinity });
  const line = message.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.trim() || (error instanceof Error ? error.name : 'unknown error');
}

function adapterError(path: string, what: string): Error {
  const error = new Error(`adapter ${path}: ${what}`);
  error.name = 'AdapterError';
  return error;
}

/** The `type` of the nearest package.json above `file`, or undefined when there is none. */
function packageType(file: string): string | undefined {
  let dir = dirname(file);
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const type = (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type;
        return typeof type === 'string' ? type : 'commonjs';
      } catch {
        return undefined;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** How a module is loaded: natively, or TypeScript through one of ts-node's two registrations. */
type Loader = 'native' | 'typescript-esm' | 'typescript-commonjs';

/** Node's own rule: `.mts` is ESM, `.cts` CommonJS, `.ts` whatever the nearest package.json's `type` says. */
function loaderFor(path: string, ext: string): Loader {
  if (ext === '.mts') return 'typescript-esm';
  if (ext === '.cts') return 'typescript-commonjs';
  if (ext === '.ts') return packageType(path) === 'module' ? 'typescript-esm' : 'typescript-commonjs';
  return 'native';
}

/** Set by whoever registered ts-node's ESM loader in this process (`bin/run-ts.js`, or below). */
const esmLoaderMark = Symbol.for('mcp-resume-spec.ts-node-esm');
const require = createRequire(import.meta.url);
let commonJsRegistered = false;

/**
 * Vitest compiles TypeScript through vite: registering ts-node there would compile it twice. Its
 * worker state, not its environment variables, which the processes a test starts inherit.
 */
function underVitest(): boolean {
  return '__vitest_worker__' in globalThis;
}

/** The nearest tsconfig.json above `file`, if any: the adapter's own compiler options. */
function nearestTsconfig(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const candidate = join(dir, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

async function importModule(path: string, loader: Loader): Promise<Record<string, unknown>> {
  const marks = globalThis as Record<symbol, unknown>;
  if (loader === 'typescript-esm' && !underVitest() && marks[esmLoaderMark] !== true) {
    // The loader's thread reads these when it starts: set them before registering.
    process.env.TS_NODE_TRANSPILE_ONLY ??= 'true';
    // ESM output whatever the project's tsconfig says (ts-node's ESM loader requires NodeNext).
    process.env.TS_NODE_COMPILER_OPTIONS ??= JSON.stringify({ module: 'NodeNext', moduleResolution: 'NodeNext' });
    const project = nearestTsconfig(path);
    if (project !== undefined) process.env.TS_NODE_PROJECT ??= project;
    else process.env.TS_NODE_SKIP_PROJECT ??= 'true';
    register(pathToFileURL(require.resolve('ts-node/esm')).href, import.meta.url);
    marks[esmLoaderMark] = true;
  }
  return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
}

/** Compiles and requires a CommonJS TypeScript module through ts-node's require hook. */
function requireTypeScript(path: string): Record<string, unknown> {
  if (!commonJsRegistered) {
    const tsNode = require('ts-node') as typeof import('ts-node');
    const project = nearestTsconfig(path);
    tsNode.register({
      transpileOnly: true,
      // `import './x.js'` naming x.ts, as tsc under NodeNext asks TypeScript to write it.
      experimentalResolver: true,
      ...(project !== undefined ? { project } : { skipProject: true }),
      // CommonJS output whatever the project's tsconfig says: this module is required, not imported.
      compilerOptions: { module: 'commonjs', moduleResolution: 'node10', verbatimModuleSyntax: false },
    });
    commonJsRegistered = true;
  }
  return require(path) as Record<string, unknown>;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const keys = Object.keys(value as object);
    return keys.length > 0 ? `an object with keys ${keys.slice(0, 6).join(', ')}` : 'an empty object';
  }
  return typeof value === 'string' ? `a string` : `${typeof value}`;
}

/** Races `promise` against a timer; on timeout, `onLate` receives the value if it ever arrives. */
function bounded<T>(promise: Promise<T>, ms: number, timeoutError: () => Error, onLate?: (value: T) => void): Promise<T> {
  return new Promise<T>((resolvePromise, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(timeoutError());
    }, ms);
    promise.then(
      (value) => {
        if (done) onLate?.(value);
        else {
          done = true;
          clearTimeout(timer);
          resolvePromise(value);
        }
      },
      (error: unknown) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Loads an adapter module.
 *
 * @param modulePath - the `--adapter` argument: a `.ts`, `.mts`, `.cts`, `.js`, `.mjs` or `.cjs` file,
 *   absolute or relative to `options.cwd`
 * @param options - cwd and the bound of `start()`/`stop()`
 * @returns the adapter, whose `start()` calls the default export, bounds it, and checks that it
 *   resolved to `{url: string, stop: function}` (a late or malformed candidate is stopped)
 * @throws Error with a one-line message: unsupported extension, missing file, a module that throws
 *   on import (or TypeScript that cannot be loaded), a default export that is not a function
 */
export async function loadAdapter(modulePath: string, options: LoadAdapterOptions = {}): Promise<LoadedAdapter> {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const { path, fn: start } = await loadDefaultFunction(modulePath, options, 'starts the candidate and resolves to {url, stop}');
  const startCandidate = start as () => unknown;
  return startable(path, startCandidate, timeoutMs);
}

/**
 * Loads a module the way `--adapter` does (every module format) and returns its default export,
 * which must be a function. `check-client --adapter` reuses it for client adapter modules.
 *
 * @param modulePath - absolute, or relative to `options.cwd`
 * @param expects - what the function must do, for the error message ("a function that ...")
 * @throws Error (name `AdapterError`) with a one-line message, as {@link loadAdapter}
 */
export async function loadDefaultFunction(
  modulePath: string,
  options: Pick<LoadAdapterOptions, 'cwd'>,
  expects: string,
): Promise<{ path: string; fn: (...args: unknown[]) => unknown }> {
  const path = resolve(options.cwd ?? process.cwd(), modulePath);
  const ext = extname(path).toLowerCase();
  if (!(adapterExtensions as readonly string[]).includes(ext)) {
    throw adapterError(path, `unsupported extension "${ext}"; expected one of ${adapterExtensions.join(', ')}`);
  }
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    throw adapterError(path, 'no such file');
  }
  if (!isFile) throw adapterError(path, 'not a file');

  let module: Record<string, unknown>;
  const loader = loaderFor(path, ext);
  try {
    module = loader === 'typescript-commonjs' && !underVitest() ? requireTypeScript(path) : await importModule(path, loader);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'MODULE_NOT_FOUND' && /'ts-node'|'typescript'/.test(firstLine(error))) {
      throw adapterError(path, `cannot load ${ext}: ${firstLine(error)} (ts-node and typescript load TypeScript adapters; reinstall mcp-resume-spec)`);
    }
    throw adapterError(path, `failed to load: ${firstLine(error)}`);
  }

  // `module.exports = start` (CommonJS) arrives as the module itself.
  let start = typeof module === 'function' ? module : module.default;
  // A CommonJS module compiled from `export default`: module.exports is `{default: fn}`.
  if (typeof start === 'object' && start !== null && typeof (start as { default?: unknown }).default === 'function') {
    start = (start as { default: unknown }).default;
  }
  if (typeof start !== 'function') {
    const got = 'default' in module ? describe(start) : 'no default export';
    throw adapterError(path, `the default export must be a function that ${expects}; got ${got}`);
  }
  return { path, fn: start as (...args: unknown[]) => unknown };
}

function startable(path: string, startCandidate: () => unknown, timeoutMs: number): LoadedAdapter {
  return {
    path,
    async start(): Promise<StartedCandidate> {
      let started: unknown;
      try {
        started = await bounded(
          Promise.resolve().then(() => startCandidate()),
          timeoutMs,
          () => adapterError(path, `start() did not resolve within ${timeoutMs} ms`),
          (late) => void stopQuietly(late),
        );
      } catch (error) {
        if (error instanceof Error && error.name === 'AdapterError') throw error;
        throw adapterError(path, `start() failed: ${firstLine(error)}`);
      }
      const candidate = started as { url?: unknown; stop?: unknown; name?: unknown; version?: unknown; headers?: unknown } | null;
      const url = typeof candidate === 'object' && candidate !== null ? candidate.url : undefined;
      const stop = typeof candidate === 'object' && candidate !== null ? candidate.stop : undefined;
      if (typeof url !== 'string' || typeof stop !== 'function') {
        await stopQuietly(started);
        throw adapterError(path, `start() must resolve to {url: string, stop: function}; got ${describe(started)}`);
      }
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        await stopQuietly(started);
        throw adapterError(path, `start() resolved to url "${url}", which is not a URL`);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        await stopQuietly(started);
        throw adapterError(path, `start() resolved to url "${url}"; expected http: or https:`);
      }
      const stopCandidate = stop as () => unknown;
      const result: StartedCandidate = {
        url: url.replace(/\/+$/, ''),
        stop: async () => {
          try {
            await bounded(
              Promise.resolve().then(() => stopCandidate.call(candidate)),
              timeoutMs,
              () => adapterError(path, `stop() did not resolve within ${timeoutMs} ms`),
            );
          } catch (error) {
            if (error instanceof Error && error.name === 'AdapterError') throw error;
            throw adapterError(path, `stop() failed: ${firstLine(error)}`);
          }
        },
      };
      const { headers } = candidate!;
      if (headers !== undefined) {
        if (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string')) {
          await stopQuietly(started);
          throw adapterError(path, `start() resolved to headers ${describe(headers)}; expected an object of strings`);
        }
        result.headers = { ...(headers as Record<string, string>) };
      }
      if (typeof candidate!.name === 'string') result.name = candidate!.name;
      if (typeof candidate!.version === 'string') result.version = candidate!.version;
      return result;
    },
  };
}

/** Stops whatever a misbehaving `start()` returned, if it has a `stop` function; never throws. */
async function stopQuietly(value: unknown): Promise<void> {
  const stop = typeof value === 'object' && value !== null ? (value as { stop?: unknown }).stop : undefined;
  if (typeof stop !== 'function') return;
  try {
    await bounded(
      Promise.resolve().then(() => (stop as () => unknown).call(value)),
      5_000,
      () => new Error('stop timed out'),
    );
  } catch {
    // the candidate is already broken; the caller reports why
  }
}
