/**
 * Starts a throwaway `redis-server` on a free loopback port, persistence off,
 * for the tests and the replicas example. redis-server has no `--port 0`, so a
 * free port is found by binding a socket to 127.0.0.1:0 and closing it; another
 * process may take it in between, so a start that fails to bind is retried.
 */
// @needs redis (scripts/ensure-redis.sh installs redis-server for the tests that reach this module)
import { spawn, type ChildProcess } from 'node:child_process';
import { freeLoopbackPort, waitUntilPortRefuses } from './adapter.js';

/** A running redis-server started by {@link startLocalRedis}. */
export interface LocalRedis {
  /** `redis://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** Stops the server (SIGTERM, then SIGKILL after a bound) and resolves once the port is free. Idempotent. */
  stop(): Promise<void>;
}

/** What to do when `redis-server` is not installed: one line, the fix included. */
export const REDIS_MISSING = 'redis-server is not installed: run `apt-get install -y redis-server` as root (or `npm test`, which runs scripts/ensure-redis.sh)';

/** How {@link startLocalRedis} finds and runs the server; the defaults are for real use. */
export interface LocalRedisOptions {
  /** Ports to try before giving up (default 5). */
  attempts?: number;
  /** Picks the next port to try (default: a port free on 127.0.0.1 right now). */
  pickPort?: () => Promise<number>;
  /** The executable (default `redis-server`, from PATH). */
  binary?: string;
}

/**
 * Starts `redis-server --bind 127.0.0.1 --port P --save '' --appendonly no`.
 *
 * @param options - attempts, port picking and executable
 * @returns the running server
 * @throws Error with {@link REDIS_MISSING} if the binary is absent, or the server's own output if it never becomes ready
 */
export async function startLocalRedis({ attempts = 5, pickPort = freeLoopbackPort, binary = 'redis-server' }: LocalRedisOptions = {}): Promise<LocalRedis> {
  let lastError: Error | undefined;
  for (let i = 0; i < attempts; i++) {
    const port = await pickPort();
    try {
      return await startOn(binary, port);
    } catch (error) {
      lastError = error as Error;
      if (!/EADDRINUSE|Address already in use/i.test(lastError.message)) throw lastError;
    }
  }
  throw new Error(`redis-server found no free port in ${attempts} attempts: ${lastError?.message}`);
}

function startOn(binary: string, port: number): Promise<LocalRedis> {
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--loglevel', 'notice'];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise<LocalRedis>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server on port ${port} not ready after 10 s: ${output.trim()}`));
    }, 10_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Ready to accept connections/i.test(output)) {
        clearTimeout(timer);
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        child.stderr?.resume();
        resolve({ url: `redis://127.0.0.1:${port}`, port, stop: stopper(child, port) });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new Error(REDIS_MISSING) : error);
    });
    // 'close', not 'exit': the output explaining the exit has been read by then.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code ?? signal}) before it was ready: ${output.trim()}`));
    });
  });
}

function stopper(child: ChildProcess, port: number): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(killer);
      }
      await waitUntilPortRefuses(port);
    })();
    return stopping;
  };
}
