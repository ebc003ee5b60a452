/**
 * Candidate: the official SDK with this project's `RedisEventStore`
 * (`mcp-resume-spec check --adapter src/check-server/candidates/sdk-redis-store.ts`). Uses
 * `REDIS_URL` if set; otherwise starts a throwaway redis-server on a free
 * loopback port and stops it with the candidate.
 */
import { createClient } from 'redis';
import { RedisEventStore } from '../../event-store/index.js';
import { startLocalRedis } from './local-redis.js';
import type { RunningCandidate } from './adapter.js';
import { startSdkWithStore } from './sdk-store.js';

/** Starts the SDK with a `RedisEventStore` per session, on a free loopback port. */
export default async function start(): Promise<RunningCandidate> {
  const local = process.env.REDIS_URL ? undefined : await startLocalRedis();
  try {
    // Commands reject on their own when Redis is unreachable; the listener only keeps the 'error' event from crashing the process.
    const client = await createClient({ url: process.env.REDIS_URL ?? local!.url })
      .on('error', () => {})
      .connect();
    return await startSdkWithStore({
      name: 'RedisEventStore',
      create: (sessionId) => new RedisEventStore({ client, sessionId }),
      release: (_sessionId, store) => (store as RedisEventStore).clear(),
      close: async () => {
        await client.quit().catch(() => {});
        await local?.stop();
      },
    });
  } catch (error) {
    await local?.stop();
    throw error;
  }
}
