/**
 * Starts the whole deployment: a redis-server (unless a URL is given), N replica processes and
 * the round-robin proxy in front of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startLocalRedis, type LocalRedis } from '../../src/check-server/candidates/local-redis.js';
import { startRoundRobinProxy } from './proxy.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** How to deploy. */
export interface DeploymentOptions {
  /** Replica processes (default 3). */
  replicas?: number;
  /** `redis` (shared log, the design) or `memory` (each replica keeps its own log: the broken deployment). */
  log?: 'redis' | 'memory';
  /** An existing Redis; default: start a throwaway redis-server on a free loopback port. */
  redisUrl?: string;
  /** The proxy's port (default: a free one). */
  port?: number;
  /** Start the replicas from `dist/examples/` (built by the tests' setup) rather than through ts-node. */
  compiled?: boolean;
}

/** A running deployment. */
export interface Deployment {
  /** The proxy's URL: what clients use. */
  url: string;
  replicaUrls: string[];
  redisUrl: string;
  /** Stops the proxy, the replicas and the redis-server it started. Idempotent. */
  stop(): Promise<void>;
}

/** Starts one replica process and resolves with its URL once it listens. */
async function startReplica(env: NodeJS.ProcessEnv, children: ChildProcess[], compiled: boolean): Promise<{ url: string; child: ChildProcess }> {
  // The tests start the compiled replica (dist/, built once for them); a user's run needs no build.
  const entry = compiled
    ? [resolve(root, 'dist/examples/replicas/replica.js')]
    : [resolve(root, 'bin/run-ts.js'), resolve(root, 'examples/replicas/replica.ts')];
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const lines = createInterface({ input: child.stdout! });
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`replica not listening after 90 s: ${stderr.trim()}`)), 90_000);
      lines.on('line', (line) => {
        const match = /^LISTENING (\S+)$/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolveUrl(match[1]!);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`replica exited (${code}) before listening: ${stderr.trim()}`));
      });
    });
    return { url, child };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killer);
}

/**
 * Starts redis (if needed), the replicas and the proxy.
 *
 * @param options - how many replicas, which log, which Redis
 * @returns the running deployment
 */
export async function startDeployment(options: DeploymentOptions = {}): Promise<Deployment> {
  const count = options.replicas ?? 3;
  const log = options.log ?? 'redis';
  const local: LocalRedis | undefined = options.redisUrl ? undefined : await startLocalRedis();
  const redisUrl = options.redisUrl ?? local!.url;
  const children: ChildProcess[] = [];
  const stopAll = async (): Promise<void> => {
    await Promise.all(children.map(stopChild));
    await local?.stop();
  };
  try {
    const started = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        startReplica({ REDIS_URL: redisUrl, REPLICA_LOG: log, REPLICA_NAME: `replica-${i + 1}` }, children, options.compiled === true),
      ),
    );
    const proxy = await startRoundRobinProxy(
      started.map((r) => r.url),
      options.port,
    );
    let stopping: Promise<void> | undefined;
    return {
      url: proxy.url,
      replicaUrls: started.map((r) => r.url),
      redisUrl,
      stop: () =>
        (stopping ??= (async () => {
          await proxy.stop();
          await stopAll();
        })()),
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
