/**
 * Loads a candidate adapter module for `mcp-resume-spec check --adapter MODULE`.
 *
 * The module's default export starts a candidate: `() => Promise<{url, stop, name?, version?}>`
 * (see `src/candidates/adapter.ts`). `.ts`/`.mts` modules load through ts-node's ESM loader, which
 * `bin/mcp-resume-spec.js` registers before anything else runs (under vitest, vite transforms them
 * instead); `.js`/`.mjs`/`.cjs` load natively. A `.ts` module outside this project loads as long as
 * Node sees it as ESM (a `package.json` with `"type": "module"` above it), or when named `.mts`:
 * ts-node's ESM loader does not compile TypeScript that Node classifies as CommonJS.
 *
 * Every way this can go wrong becomes an `Error` with a one-line message naming the module, which
 * the CLI prints and turns into exit status 2.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A started candidate, as the loader hands it to the suite. */
export interface StartedCandidate {
  /** Base URL without a trailing slash. */
  url: string;
  /** Stops the candidate; bounded by the loader's timeout. */
  stop: () => Promise<void>;
  name?: string;
  version?: string;
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
export const adapterExtensions = ['.ts', '.mts', '.js', '.mjs', '.cjs'] as const;

const defaultTimeoutMs = 30_000;

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
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
 * @param modulePath - the `--adapter` argument: a `.ts`, `.mts`, `.js`, `.mjs` or `.cjs` file,
 *   absolute or relative to `options.cwd`
 * @param options - cwd and the bound of `start()`/`stop()`
 * @returns the adapter, whose `start()` calls the default export, bounds it, and checks that it
 *   resolved to `{url: string, stop: function}` (a late or malformed candidate is stopped)
 * @throws Error with a one-line message: unsupported extension, missing file, a module that throws
 *   on import (or TypeScript that cannot be loaded), a default export that is not a function
 */
export async function loadAdapter(modulePath: string, options: LoadAdapterOptions = {}): Promise<LoadedAdapter> {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
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
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw adapterError(path, `cannot load ${ext} here: no TypeScript loader in this process (run it through bin/mcp-resume-spec.js, which registers ts-node/esm)`);
    }
    const compileProblem = error instanceof SyntaxError || (typeof code === 'string' && code.startsWith('ERR_REQUIRE'));
    if (ext === '.ts' && compileProblem && packageType(path) !== 'module') {
      throw adapterError(
        path,
        `cannot load: Node treats this .ts file as CommonJS (no package.json with "type": "module" above it) and ts-node's ESM loader does not compile that; rename it .mts or add such a package.json (${firstLine(error)})`,
      );
    }
    throw adapterError(path, `failed to load: ${firstLine(error)}`);
  }

  let start = module.default;
  // A CommonJS module compiled from `export default`: module.exports is `{default: fn}`.
  if (typeof start === 'object' && start !== null && typeof (start as { default?: unknown }).default === 'function') {
    start = (start as { default: unknown }).default;
  }
  if (typeof start !== 'function') {
    const got = 'default' in module ? describe(start) : 'no default export';
    throw adapterError(path, `the default export must be a function that starts the candidate and resolves to {url, stop}; got ${got}`);
  }
  const startCandidate = start as () => unknown;

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
      const candidate = started as { url?: unknown; stop?: unknown; name?: unknown; version?: unknown } | null;
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
    await bounded(Promise.resolve().then(() => (stop as () => unknown).call(value)), 5_000, () => new Error('stop timed out'));
  } catch {
    // the candidate is already broken; the caller reports why
  }
}
