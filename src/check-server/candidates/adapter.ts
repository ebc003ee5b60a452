/**
 * What every candidate adapter returns, and the small pieces of plumbing the
 * adapters share: learning a package's installed version, finding a free
 * loopback port, and waiting for a port to stop accepting connections.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, connect, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';

/** A running candidate server, as an adapter module's default export resolves it. */
export interface RunningCandidate {
  /**
   * Where the server listens, read as `check --url` reads it: its streamable HTTP endpoint (e.g.
   * `http://127.0.0.1:41234/mcp`, with the legacy endpoints `sse` and `messages` beside it), or a
   * base URL without a path (e.g. `http://127.0.0.1:41234`, endpoints `/mcp`, `/sse`, `/messages`).
   */
  url: string;
  /** Closes every session and the listening socket; resolves once the port is free. Idempotent. */
  stop(): Promise<void>;
  /** The package under test, e.g. `@modelcontextprotocol/sdk`. */
  name: string;
  /** Its installed version, read from its package.json. */
  version: string;
  /** Headers to send with every request (e.g. `authorization` for a server behind a gate), as `check --header` adds them. */
  headers?: Record<string, string>;
}

/** The shape of an adapter module's default export. */
export type StartCandidate = () => Promise<RunningCandidate>;

const require = createRequire(import.meta.url);

/**
 * Reads the installed version of a package.
 *
 * Resolves `entry` (any importable subpath of the package) and walks up to the
 * package.json whose `name` is `packageName`; going through a resolvable entry
 * is needed because some packages' `exports` map does not expose package.json.
 *
 * @param packageName - the npm name, e.g. `@modelcontextprotocol/sdk`
 * @param entry - a specifier that resolves inside the package
 * @returns the `version` field of that package.json
 */
export function installedVersion(packageName: string, entry: string): string {
  let dir = dirname(require.resolve(entry));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === packageName && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // no package.json at this level (or unreadable): keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find package.json of ${packageName} above ${entry}`);
    dir = parent;
  }
}

/**
 * Asks the kernel for a currently free TCP port on 127.0.0.1.
 *
 * For servers that only take a fixed port and do not report the one they bound:
 * the port is free when this resolves, but another process may take it before
 * the caller binds it, so callers retry on `EADDRINUSE`.
 *
 * @returns a port number in the ephemeral range
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close((error) => (error ? reject(error) : resolve(port)));
    });
  });
}

/**
 * Resolves once nothing accepts TCP connections on 127.0.0.1:`port` any more.
 *
 * `http.Server.close()` calls back when the listening socket is closed, so one
 * refused probe is normally enough; the loop covers servers whose close promise
 * resolves before the socket is released.
 *
 * @param port - the port the candidate was listening on
 * @param attempts - how many probes to make, 20 ms apart, before giving up
 * @throws Error if the port still accepts connections after `attempts` probes
 */
export async function waitUntilPortRefuses(port: number, attempts = 100): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (!(await acceptsConnections(port))) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`127.0.0.1:${port} still accepts connections after stop()`);
}

/**
 * Tries one TCP connection to 127.0.0.1:`port`.
 *
 * @param port - the port to probe
 * @returns true if the connection was accepted, false if it was refused or failed
 */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (accepted: boolean): void => {
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.destroy();
      resolve(accepted);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
