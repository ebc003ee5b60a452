/**
 * Candidate: mcp-proxy 6.7 (`startHTTPServer`) serving streamable HTTP at `/mcp`
 * and legacy HTTP+SSE at `/sse` + `/messages` from one process, as its users
 * deploy it: one SDK 2.x `McpServer` per session from `createServer`, and the
 * default event store (a fresh, bounded mcp-proxy `InMemoryEventStore` per
 * streamable session). Every other option is left at its default, including
 * the 2026-07-28 "modern" leg on `/mcp`, which SDK 1.x clients never reach.
 */
import { startHTTPServer } from 'mcp-proxy';
import { freeLoopbackPort, installedVersion, waitUntilPortRefuses, type RunningCandidate } from './adapter.js';
import { createFixtureServerV2 } from '../../fixtures/v2.js';

/** How many free ports to try before giving up, in case another process takes one between probe and bind. */
const BIND_ATTEMPTS = 5;

/**
 * Starts the mcp-proxy candidate on 127.0.0.1.
 *
 * `startHTTPServer` neither reports the port it bound nor exposes its
 * `http.Server`, so port 0 would leave the URL unknown: a free port is found
 * first and bound explicitly, retrying if it was taken in between.
 *
 * @returns the running candidate; `stop()` runs mcp-proxy's `close()` and waits until the port is free
 */
export default async function start(): Promise<RunningCandidate> {
  const executions = new Map<string, number>();
  const version = installedVersion('mcp-proxy', 'mcp-proxy');

  for (let attempt = 1; ; attempt++) {
    const port = await freeLoopbackPort();
    let server: Awaited<ReturnType<typeof startHTTPServer>>;
    try {
      server = await startHTTPServer({
        createServer: async () => createFixtureServerV2({ name: 'mcp-proxy-candidate', version }, executions),
        host: '127.0.0.1',
        port,
        sseEndpoint: '/sse',
        streamEndpoint: '/mcp',
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < BIND_ATTEMPTS) continue;
      throw error;
    }

    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        await server.close();
        await waitUntilPortRefuses(port);
      })();
      return stopping;
    };
    return { url: `http://127.0.0.1:${port}`, stop, name: 'mcp-proxy', version };
  }
}
