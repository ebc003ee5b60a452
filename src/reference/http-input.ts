/**
 * Validation of what arrives over HTTP before any session sees it: content negotiation, the body
 * (bounded), session IDs and the `MCP-Protocol-Version` header. Each check throws the
 * {@link HttpError} a client should get.
 */
import type { IncomingMessage } from 'node:http';
import { ErrorCode, HttpError, badRequest } from './http-errors.js';
import { DEFAULT_HEADER_VERSION, LEGACY_PROTOCOL_VERSIONS } from './protocol.js';

/** Longest session ID the server reads; longer ones are garbage (its own are 32 characters). */
const MAX_SESSION_ID_LENGTH = 256;

/** Default bound of a POST body (bytes). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** A header's single value (repeated headers are joined by node with `, `, or kept as an array). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The media type of a `Content-Type`, lower-cased, without parameters. */
function essence(value: string): string {
  return value.split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * Whether an `Accept` header admits `type` (`type/subtype`): an exact or wildcard range whose
 * `q` is not 0. An absent header admits nothing, because MCP requires clients to send one.
 */
function accepts(acceptHeader: string | undefined, type: string): boolean {
  if (acceptHeader === undefined) return false;
  const [major] = type.split('/');
  return acceptHeader.split(',').some((range) => {
    const [media, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (media !== type && media !== `${major}/*` && media !== '*/*') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** @throws HttpError 406 unless the request accepts every one of `types` */
export function requireAccept(req: IncomingMessage, ...types: string[]): void {
  const accept = header(req, 'accept');
  const missing = types.filter((t) => !accepts(accept, t));
  if (missing.length > 0) {
    throw new HttpError(406, ErrorCode.ServerError, `Not Acceptable: the client must accept ${types.join(' and ')}`);
  }
}

/** @throws HttpError 415 unless the body is declared `application/json` */
export function requireJsonContent(req: IncomingMessage): void {
  const type = header(req, 'content-type');
  if (type === undefined || essence(type) !== 'application/json') {
    throw new HttpError(415, ErrorCode.ServerError, 'Unsupported Media Type: Content-Type must be application/json');
  }
}

/** The spec's alphabet for session IDs: visible ASCII (0x21-0x7E). */
function isVisibleAscii(id: string): boolean {
  return /^[\x21-\x7e]+$/.test(id);
}

/**
 * A session ID as presented, checked against the spec's alphabet (visible ASCII, 0x21-0x7E)
 * and a sane length; `undefined` when none was presented.
 *
 * @throws HttpError 400 for an empty, over-long or non-visible-ASCII ID (`accepts`: a mutation's own alphabet)
 */
export function checkSessionId(value: string | undefined, accepts: (id: string) => boolean = isVisibleAscii): string | undefined {
  if (value === undefined) return undefined;
  if (value.length === 0 || value.length > MAX_SESSION_ID_LENGTH || !accepts(value)) {
    throw badRequest(`Bad Request: a session ID is 1 to ${MAX_SESSION_ID_LENGTH} visible ASCII characters`);
  }
  return value;
}

/**
 * The protocol version a streamable request speaks: its `MCP-Protocol-Version` header, or
 * 2025-03-26 when absent. Every revision the server knows is accepted (2024-11-05 too: a bridged
 * legacy session presented at `/mcp` may carry its own version, and whether that session is served
 * there is the machine's call, not this header check's).
 *
 * @throws HttpError 400 for a version the server does not support
 */
export function headerProtocolVersion(req: IncomingMessage): string {
  const value = header(req, 'mcp-protocol-version');
  if (value === undefined) return DEFAULT_HEADER_VERSION;
  if (!LEGACY_PROTOCOL_VERSIONS.includes(value)) {
    throw badRequest(`Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(value.slice(0, 64))}; supported: ${LEGACY_PROTOCOL_VERSIONS.join(', ')}`);
  }
  return value;
}

/** The `Last-Event-ID` presented, if any (empty means none, as in EventSource). */
export function lastEventId(req: IncomingMessage): string | undefined {
  const value = header(req, 'last-event-id');
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Reads the whole body as UTF-8, at most `maxBytes`.
 *
 * @throws HttpError 413 when the declared or actual length exceeds `maxBytes`
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const tooLarge = (): HttpError =>
    new HttpError(413, ErrorCode.ServerError, `Payload Too Large: the body limit is ${maxBytes} bytes`, null, { connection: 'close' });
  const declared = header(req, 'content-length');
  if (declared !== undefined && Number(declared) > maxBytes) {
    // Let the rest of the body flow into the void so the client can read the 413 before the close.
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > maxBytes) {
        over = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (error) => {
      if (!over) reject(error);
    });
    // A client that aborts mid-body: nobody is left to answer, but the promise must still settle.
    req.on('close', () => {
      if (!over && !req.complete) reject(new Error('the client closed the connection before the body ended'));
    });
  });
}
