/**
 * Shared plumbing of the reference-server tests: servers closed after each test, bounded waits,
 * a raw node:http request for pinning statuses and bodies, and an SDK client with a recorder of
 * the fixture notifications it receives.
 */
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, type StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../src/reference/index.js';

/** Upper bound of any single wait; a hang fails the test instead of stalling the suite. */
export const WAIT_MS = 10_000;

/** Rejects if `promise` has not settled within `ms`. */
export function withBound<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

/** Resolves once `pred()` holds (checked every few ms), for at most `ms`. */
export async function until(pred: () => boolean, what: string, ms = WAIT_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const cleanups: Array<() => Promise<unknown> | unknown> = [];

/** Registers `afterEach` cleanup for this test file: everything registered is closed, newest first. */
export function useCleanup(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
  });
}

/** Runs `fn` after the current test. */
export function defer(fn: () => Promise<unknown> | unknown): void {
  cleanups.push(fn);
}

/** Starts a reference server that is closed after the test. */
export async function startServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const server = await createReferenceServer(options);
  defer(() => server.close());
  return server;
}

/** A raw answer: status, lower-cased headers, the body (or, for SSE, what arrived before `readMs`). */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json?: any;
}

/** One raw request. */
export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
  /** Bound of the whole exchange (default 5 s). */
  timeoutMs?: number;
  /** For an SSE answer: how long to read before aborting (default 0: the head only). */
  readMs?: number;
}

/**
 * Sends one request with node:http (no client library in the way, any header or body the caller
 * likes) and reads the answer. An SSE answer is aborted after `readMs`, so an open stream never
 * blocks the test. Rejects on a transport error or after `timeoutMs`.
 */
export function raw(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return withBound(
    new Promise<RawAnswer>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: request.method,
          path: request.path,
          // Node sends no length for a body on GET/DELETE/OPTIONS, so the server would read it as the
          // next request: always declare it, as a correct client does.
          headers: request.body === undefined ? request.headers : { 'content-length': Buffer.byteLength(request.body), ...request.headers },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          const done = (): void => {
            const text = Buffer.concat(chunks).toString('utf8');
            const answer: RawAnswer = { status: res.statusCode ?? 0, headers: res.headers, text };
            try {
              if (text !== '') answer.json = JSON.parse(text);
            } catch {
              /* not JSON */
            }
            resolve(answer);
          };
          res.on('data', (c: Buffer) => chunks.push(c));
          if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
            setTimeout(() => {
              done();
              req.destroy();
            }, request.readMs ?? 0);
            res.on('error', () => {});
          } else {
            res.on('end', done);
            res.on('error', reject);
          }
        },
      );
      req.on('error', reject);
      req.end(request.body);
    }),
    `${request.method} ${request.path}`,
    request.timeoutMs ?? 5000,
  );
}

/** Headers of a streamable POST. */
export const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;

/** An `initialize` request body. */
export function initializeBody(capabilities: Record<string, unknown> = {}, protocolVersion = '2025-11-25', id: number | string = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities, clientInfo: { name: 'raw', version: '0' } },
  });
}

/** A connected SDK client and the fixture notifications it has received, by label. */
export interface SdkConnection {
  client: Client;
  transport: StreamableHTTPClientTransport | SSEClientTransport;
  /** seqs received per label, in arrival order. */
  received: Map<string, number[]>;
  /** Resolves once `label` has `count` notifications (bounded). */
  notifications(label: string, count: number): Promise<number[]>;
}

/**
 * Connects an SDK client over `kind`, closed after the test. For streamable HTTP, `options` go to
 * the transport (reconnection, a custom fetch, a session ID to resume a session without
 * initializing).
 */
export async function connectSdk(
  baseUrl: string,
  kind: 'streamable' | 'sse',
  capabilities: Record<string, unknown> = {},
  options: StreamableHTTPClientTransportOptions = {},
): Promise<SdkConnection> {
  const client = new Client({ name: 'reference-test', version: '0.0.0' }, { capabilities });
  const received = new Map<string, number[]>();
  const wakers = new Set<() => void>();
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    const data = n.params.data as { label?: unknown; seq?: unknown };
    if (typeof data?.label !== 'string' || typeof data.seq !== 'number') return;
    received.set(data.label, [...(received.get(data.label) ?? []), data.seq]);
    for (const wake of wakers) wake();
  });
  const transport =
    kind === 'streamable' ? new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), options) : new SSEClientTransport(new URL(`${baseUrl}/sse`));
  defer(() => withBound(client.close(), 'SDK client close'));
  await withBound(client.connect(transport), `SDK connect over ${kind}`);
  const notifications = (label: string, count: number): Promise<number[]> =>
    withBound(
      new Promise<number[]>((resolve) => {
        const check = (): void => {
          const seqs = received.get(label) ?? [];
          if (seqs.length < count) return;
          wakers.delete(check);
          resolve(seqs);
        };
        wakers.add(check);
        check();
      }),
      `${count} notifications labelled ${label}`,
    );
  return { client, transport, received, notifications };
}

/** The parsed text of a fixture tool's result. */
export function fixtureText(result: unknown): any {
  const first = ((result as { content?: unknown }).content as Array<{ type: string; text?: string }> | undefined)?.[0];
  if (first?.type !== 'text' || typeof first.text !== 'string') throw new Error('no text result');
  return JSON.parse(first.text);
}
