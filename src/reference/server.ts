/**
 * The reference server: the model's session machine served over real HTTP, both transports from
 * one process and one session store. It owns the listening socket, routing by path, and the rule
 * that no client input ever produces a 5xx or brings the process down.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { policies, policyByName, type Policy, type ServerPolicy } from '../../model/policy.js';
import { ErrorCode, HttpError, badRequest, sendError } from './http-errors.js';
import { DEFAULT_MAX_BODY_BYTES } from './http-input.js';
import { getSse, postMessages } from './legacy-routes.js';
import { noMutation, type Mutation } from './mutation.js';
import type { Paths, RouteContext } from './route-context.js';
import type { Session } from './session.js';
import { SessionStore, defaultSessionLimits, type SessionLimits } from './session-store.js';
import { handleStreamable } from './streamable-routes.js';

/** Options of {@link createReferenceServer}. */
export interface ReferenceServerOptions {
  /** A policy, or the name of one in `model/policy.ts` (default `reference`). Only its server knobs matter here. */
  policy?: Policy | string;
  /** Interface to bind (default `127.0.0.1`). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** Largest POST body accepted, bytes (default 1 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /**
   * A deliberate distortion of the server (`mutation.ts`, catalog in `src/check-server/mutants/`); default none.
   * Give each server its own: a mutation may keep state.
   */
  mutation?: Mutation;
  /**
   * Bounds on the session store: idle TTL, session cap, events retained per log (defaults in
   * `defaultSessionLimits`: 30 minutes, 10,000 sessions, every event). A finite TTL turns the
   * machine's `sessionExpiry` to `idleTtl`; a finite retention turns an unbounded `logRetention` to `bounded`.
   */
  limits?: Partial<SessionLimits>;
}

/** A running reference server. */
export interface ReferenceServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`; endpoints are `/mcp`, `/sse`, `/messages`. */
  readonly url: string;
  /** The store's bounds in effect. */
  readonly limits: Readonly<SessionLimits>;
  /** Sessions expired or evicted so far. */
  readonly evicted: number;
  /** The policy served, and its name (`custom` for an unnamed policy object). */
  readonly policy: Policy;
  readonly policyName: string;
  /** The mutation served (`noMutation` for the reference). */
  readonly mutation: Mutation;
  /** Every session held by ID, terminated ones included until they expire or are evicted (for tests and debugging; do not drive them). */
  readonly sessions: ReadonlyMap<string, Session>;
  /**
   * Internal errors so far (each was answered 500). Client input never causes one; a non-empty
   * list is a bug in the server or the model.
   */
  readonly internalErrors: readonly unknown[];
  /** Ends every stream, closes every connection and the listening socket. Idempotent. */
  close(): Promise<void>;
}

/** The endpoint paths (fixed by the candidate contract's defaults). */
const PATHS: Paths = { mcp: '/mcp', sse: '/sse', messages: '/messages' };

/** The machine's knobs with the store's bounds: expiry on with a finite TTL, retention bounded with a finite log. */
function servedPolicy(server: ServerPolicy, limits: SessionLimits): ServerPolicy {
  return {
    ...server,
    sessionExpiry: Number.isFinite(limits.sessionTtlMs) ? 'idleTtl' : server.sessionExpiry,
    logRetention: Number.isFinite(limits.retainedEvents) && server.logRetention === 'unbounded' ? 'bounded' : server.logRetention,
  };
}

/** Checks the bounds: positive numbers (`Infinity` for none). */
function resolveLimits(given: Partial<SessionLimits> | undefined, mutation: Mutation): SessionLimits {
  const limits = { ...defaultSessionLimits, ...given };
  if (mutation.retainedEvents) limits.retainedEvents = mutation.retainedEvents();
  for (const [name, value] of Object.entries(limits)) {
    if (!(value > 0) || (Number.isFinite(value) && !Number.isInteger(value))) {
      throw new RangeError(`limits.${name} must be a positive integer or Infinity, got ${String(value)}`);
    }
  }
  return limits;
}

function resolvePolicy(policy: Policy | string | undefined): { policy: Policy; name: string } {
  if (policy === undefined) return { policy: policyByName('reference'), name: 'reference' };
  if (typeof policy === 'string') return { policy: policyByName(policy), name: policy };
  const name = Object.entries(policies).find(([, p]) => p === policy)?.[0] ?? 'custom';
  return { policy, name };
}

/** The request target's path and query; only origin-form targets (`/path?query`) are routed. */
function requestUrl(req: http.IncomingMessage): URL {
  const target = req.url ?? '';
  if (!target.startsWith('/')) throw badRequest('Bad Request: the request target must be a path');
  try {
    // A fixed origin keeps `//host/...` targets paths instead of authorities.
    return new URL(`http://reference.invalid${target}`);
  } catch {
    throw badRequest('Bad Request: unparseable request target');
  }
}

async function route(req: http.IncomingMessage, res: http.ServerResponse, context: RouteContext): Promise<void> {
  const url = requestUrl(req);
  const notAllowed = (allow: string): HttpError => new HttpError(405, ErrorCode.ServerError, 'Method Not Allowed', null, { allow });
  switch (url.pathname) {
    case context.paths.mcp:
      return handleStreamable(req, res, context);
    case context.paths.sse:
      if (req.method !== 'GET') throw notAllowed('GET');
      return getSse(req, res, url, context);
    case context.paths.messages:
      if (req.method !== 'POST') throw notAllowed('POST');
      return postMessages(req, res, url, context);
    default:
      throw new HttpError(404, ErrorCode.ServerError, `Not Found: ${url.pathname.slice(0, 100)}`);
  }
}

/**
 * Starts the reference server: the model's session machine (one actor per session) behind
 * streamable HTTP (`/mcp`) and legacy HTTP+SSE (`/sse`, `/messages`), with the fixture tools of
 * the candidate contract. Every session and stream decision is the machine's; see
 * `src/reference/README.md` for the wire mapping.
 *
 * @example
 * ```ts
 * const server = await createReferenceServer({ policy: 'seed-003' });
 * // ... point a client at `${server.url}/mcp` or `${server.url}/sse`
 * await server.close();
 * ```
 * @throws RangeError for an unknown policy name; rejects when the port cannot be bound
 */
export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const { policy, name } = resolvePolicy(options.policy);
  const internalErrors: unknown[] = [];
  const mutation = options.mutation ?? noMutation;
  const limits = resolveLimits(options.limits, mutation);
  const store = new SessionStore(servedPolicy(policy.server, limits), PATHS.messages, (error) => internalErrors.push(error), mutation, limits);
  const context: RouteContext = {
    store,
    executions: new Map(),
    policyName: name,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    paths: PATHS,
    mutation,
  };

  const server = http.createServer((req, res) => {
    route(req, res, context).catch((error: unknown) => {
      if (error instanceof HttpError) {
        sendError(res, error);
        return;
      }
      // The client left mid-request (e.g. aborted its body): nobody to answer, nothing went wrong.
      if (req.destroyed && !req.complete) return;
      internalErrors.push(error);
      sendError(res, new HttpError(500, ErrorCode.InternalError, `Internal error: ${(error as Error)?.message ?? String(error)}`));
    });
  });

  // Malformed HTTP never reaches a route; answer it in the same JSON-RPC shape as every refusal.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
    const body = JSON.stringify(
      new HttpError(tooLarge ? 431 : 400, ErrorCode.InvalidRequest, `Bad Request: malformed HTTP (${error.code ?? 'parse error'})`).body(),
    );
    socket.end(`HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostPart}:${address.port}`,
    policy,
    policyName: name,
    mutation,
    limits,
    get evicted() {
      return store.evicted;
    },
    sessions: store.all,
    internalErrors,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        store.dispose();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
