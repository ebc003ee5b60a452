/** The throwaway redis-server the tests and the replicas example start. */
import { createServer, type Server } from 'node:net';
import { createClient } from 'redis';
import { afterEach, expect, test } from 'vitest';
import { acceptsConnections, freeLoopbackPort } from '../../src/check-server/candidates/adapter.js';
import { REDIS_MISSING, startLocalRedis, type LocalRedis } from '../../src/check-server/candidates/local-redis.js';

let running: LocalRedis | undefined;
let squatter: Server | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await new Promise<void>((resolve) => (squatter ? squatter.close(() => resolve()) : resolve()));
  squatter = undefined;
});

test('serves on loopback with persistence off, and stop() frees the port', async () => {
  running = await startLocalRedis();
  expect(running.url).toBe(`redis://127.0.0.1:${running.port}`);
  const client = await createClient({ url: running.url }).connect();
  try {
    expect(await client.ping()).toBe('PONG');
    expect(await client.configGet('save')).toEqual({ save: '' });
    expect(await client.configGet('appendonly')).toEqual({ appendonly: 'no' });
    expect(await client.configGet('bind')).toEqual({ bind: '127.0.0.1' });
  } finally {
    await client.quit();
  }
  await running.stop();
  expect(await acceptsConnections(running.port)).toBe(false);
  await running.stop();
});

test('a port taken between picking and binding is retried with another', async () => {
  squatter = createServer();
  await new Promise<void>((resolve) => squatter!.listen(0, '127.0.0.1', resolve));
  const taken = (squatter.address() as { port: number }).port;
  const picks = [taken];
  running = await startLocalRedis({ pickPort: async () => picks.shift() ?? freeLoopbackPort() });
  expect(running.port).not.toBe(taken);
});

test('a missing redis-server is one line that says how to install it', async () => {
  await expect(startLocalRedis({ binary: 'redis-server-that-is-not-installed' })).rejects.toThrow(REDIS_MISSING);
  expect(REDIS_MISSING).not.toContain('\n');
});
