/**
 * Entry point of one replica process: `node bin/run-ts.js examples/replicas/replica.ts`, with
 * `REDIS_URL`, `REPLICA_LOG` (`redis`, the default, or `memory`) and `REPLICA_NAME` in the
 * environment. Listens on 127.0.0.1, on `PORT` or a free port, and prints `LISTENING <url>`.
 * Exits on SIGTERM or SIGINT after closing its connections.
 */
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { createReplicaServer } from './replica-server.js';
import { LocalSessionLog } from './local-session-log.js';
import { RedisSessionLog } from './redis-session-log.js';
import type { SessionLog } from './session-log.js';

const redisUrl = process.env.REDIS_URL;
const kind = process.env.REPLICA_LOG ?? 'redis';
if (!redisUrl || (kind !== 'redis' && kind !== 'memory')) {
  console.error('replica: set REDIS_URL, and REPLICA_LOG to redis or memory');
  process.exit(2);
}
const redis = createClient({ url: redisUrl }).on('error', (error: Error) => console.error(`replica: redis: ${error.message}`));
await redis.connect();
const log: SessionLog = kind === 'redis' ? new RedisSessionLog(redis) : new LocalSessionLog();
const server = createReplicaServer({ redis, log, name: process.env.REPLICA_NAME ?? `replica-${process.pid}` });
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`LISTENING http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

const shutdown = async (): Promise<void> => {
  server.close();
  server.closeAllConnections();
  await log.close();
  await redis.quit().catch(() => {});
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
