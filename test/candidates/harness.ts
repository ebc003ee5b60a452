/**
 * Shared checks for candidate adapters: drive a started candidate with the
 * official SDK client over each transport and exercise the fixture tools.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LoggingMessageNotificationSchema, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { RunningCandidate } from '../../src/check-server/candidates/adapter.js';

/** Capabilities the test client declares, so that `session_info` has something specific to echo. */
export const CLIENT_CAPABILITIES: ClientCapabilities = { roots: { listChanged: true } };

/** Upper bound of any single wait in these tests; a hang fails instead of stalling the suite. */
const WAIT_MS = 10_000;

export type TransportKind = 'streamable' | 'sse';

/** A connected client plus the logging notifications it has received, by label. */
export interface Connected {
  client: Client;
  /** seqs received per label, in arrival order */
  received: Map<string, number[]>;
  /** Resolves when `label` has received `count` notifications; rejects after a bound. */
  waitForNotifications(label: string, count: number): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * Connects an SDK `Client` to `candidate` over the given transport.
 *
 * @param candidate - a started candidate
 * @param kind - `streamable` (POST/GET /mcp) or `sse` (GET /sse + POST /messages)
 * @returns the connected client with a logging-notification recorder
 */
export async function connect(candidate: RunningCandidate, kind: TransportKind): Promise<Connected> {
  const client = new Client({ name: 'candidate-test', version: '0.0.0' }, { capabilities: CLIENT_CAPABILITIES });
  const received = new Map<string, number[]>();
  const waiters = new Set<() => void>();
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const data = notification.params.data as { label?: unknown; seq?: unknown } | undefined;
    // Candidates may log other things (mcp-proxy greets every SSE connection); keep only fixture messages.
    if (typeof data !== 'object' || data === null || typeof data.label !== 'string' || typeof data.seq !== 'number') return;
    const seqs = received.get(data.label) ?? [];
    seqs.push(data.seq);
    received.set(data.label, seqs);
    for (const wake of waiters) wake();
  });
  const transport: Transport =
    kind === 'streamable' ? new StreamableHTTPClientTransport(new URL(`${candidate.url}/mcp`)) : new SSEClientTransport(new URL(`${candidate.url}/sse`));
  await withBound(client.connect(transport), `connect over ${kind}`);

  const waitForNotifications = (label: string, count: number): Promise<number[]> =>
    withBound(
      new Promise<number[]>((resolve) => {
        const check = (): void => {
          const seqs = received.get(label) ?? [];
          if (seqs.length >= count) {
            waiters.delete(check);
            resolve(seqs);
          }
        };
        waiters.add(check);
        check();
      }),
      `${count} notifications for ${label}`,
    );

  return { client, received, waitForNotifications, close: () => withBound(client.close(), 'client close') };
}

/**
 * Calls a fixture tool and returns its parsed text result.
 *
 * @param client - a connected client
 * @param name - the tool
 * @param args - its arguments
 * @returns `JSON.parse` of the first text block
 */
export async function callFixture(client: Client, name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await withBound(client.callTool({ name, arguments: args }), `call ${name}`);
  const content = result.content as Array<{ type: string; text?: string }>;
  const first = content[0];
  if (first?.type !== 'text' || typeof first.text !== 'string') throw new Error(`${name}: no text result`);
  return JSON.parse(first.text) as unknown;
}

/**
 * Rejects if `promise` has not settled within the bound.
 *
 * @param promise - the operation
 * @param what - what is awaited, for the error message
 * @returns the operation's value
 */
export function withBound<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

/** A label unique to this test run, so counters of earlier calls never interfere. */
export function uniqueLabel(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}
