/**
 * Client adapter: the official SDK client (`@modelcontextprotocol/sdk` 1.32.2), `Client` over
 * `StreamableHTTPClientTransport` (its reconnection options and resumption token) or over
 * `SSEClientTransport`, used as an application would: `callTool` with the checker's request timeout,
 * every notification through the client's fallback notification handler. The application code
 * adds no recovery of its own (no re-initialization, no retry): what the checker finds is the SDK's.
 *
 * `mcp-resume-spec check-client --adapter src/check-client/adapters/sdk.ts`
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientFactory, ClientFactoryOptions, ClientUnderTest } from './contract.js';

/**
 * Reconnection scaled to a check's timeouts (the SDK's defaults wait 1 s before the first attempt,
 * longer than a check's request timeout): the same backoff, shorter.
 */
export const reconnectionOptions = { initialReconnectionDelay: 50, maxReconnectionDelay: 400, reconnectionDelayGrowFactor: 2, maxRetries: 2 };

/** Makes one connected SDK client. */
export const sdkClientFactory: ClientFactory = async (options: ClientFactoryOptions): Promise<ClientUnderTest> => {
  const url = new URL(options.url);
  const client = new Client({ name: 'mcp-resume-spec-check-client', version: '1' });
  const listeners: Array<(n: { method: string; params?: unknown }) => void> = [];
  client.fallbackNotificationHandler = async (notification) => {
    for (const listener of listeners) listener({ method: notification.method, params: notification.params });
  };
  // The resumption token the transport reports: an application would persist it to resume later.
  let resumptionToken: string | undefined;
  const transport = options.transport === 'streamable' ? new StreamableHTTPClientTransport(url, { reconnectionOptions }) : new SSEClientTransport(url);
  // Transport errors (a cut stream, a failed reconnect) are the SDK's to handle; the application only logs them.
  client.onerror = () => {};
  // Connecting is setup, not under test: bound it generously so a loaded machine does not fail a scenario.
  await client.connect(transport, { timeout: Math.max(options.timeoutMs * 10, 5000) });
  const underTest: ClientUnderTest & { readonly resumptionToken: string | undefined } = {
    async callTool(name, args) {
      return client.callTool({ name, arguments: args }, undefined, {
        timeout: options.timeoutMs,
        onresumptiontoken: (token: string) => {
          resumptionToken = token;
        },
      });
    },
    onNotification(listener) {
      listeners.push(listener);
    },
    async close() {
      await client.close();
    },
    /** The last resumption token the SDK reported (for debugging a check). */
    get resumptionToken() {
      return resumptionToken;
    },
  };
  return underTest;
};

export default () => sdkClientFactory;
