/**
 * The MCP handshake as the reference server speaks it: which protocol versions each transport
 * negotiates, what `initialize` must carry, what the server answers, and which clients get a
 * priming event.
 */
import type { Transport } from '../../model/transport.js';
import { ErrorCode, type HttpError, badRequest } from './http-errors.js';
import { isObject, type JsonObject, type JsonRpcRequest } from './jsonrpc.js';
import { toolVersion } from '../version.js';

/** The latest revision the server speaks; the answer to a version it does not support. */
export const LATEST_PROTOCOL_VERSION = '2025-11-25';

/** The revisions the streamable-HTTP endpoint negotiates, newest first. */
export const STREAMABLE_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];

/** The revisions the legacy HTTP+SSE endpoints negotiate: the streamable ones and 2024-11-05. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = [...STREAMABLE_PROTOCOL_VERSIONS, '2024-11-05'];

/** What a request without `MCP-Protocol-Version` is assumed to speak (2025-06-18 transports spec). */
export const DEFAULT_HEADER_VERSION = '2025-03-26';

/** The first revision whose streams open with a priming event (SEP-1699). */
const PRIMING_SINCE = '2025-11-25';

/** Capabilities the server declares: the fixture tools, and `logging` for their notifications. */
export const SERVER_CAPABILITIES: JsonObject = Object.freeze({ tools: {}, logging: {} });

/** `serverInfo` of every InitializeResult. */
const SERVER_INFO = Object.freeze({ name: 'mcp-resume-spec-reference', version: toolVersion() });

/** The version the server answers: the client's when supported under `transport`, else the latest. */
export function negotiateVersion(transport: Transport, requested: string): string {
  const supported = transport === 'sse' ? LEGACY_PROTOCOL_VERSIONS : STREAMABLE_PROTOCOL_VERSIONS;
  return supported.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** The parts of `initialize` the server keeps. */
export interface InitializeParams {
  protocolVersion: string;
  capabilities: JsonObject;
}

/**
 * Reads `initialize` params.
 *
 * @throws HttpError 400 -32602 when `protocolVersion` is not a string or `capabilities` not an object
 */
export function readInitializeParams(request: JsonRpcRequest): InitializeParams {
  const params = request.params;
  const invalid = (why: string): HttpError => badRequest(`Invalid params: ${why}`, ErrorCode.InvalidParams, request.id);
  if (params === undefined) throw invalid('initialize needs params');
  if (typeof params.protocolVersion !== 'string') throw invalid('protocolVersion must be a string');
  if (!isObject(params.capabilities)) throw invalid('capabilities must be an object');
  return { protocolVersion: params.protocolVersion, capabilities: params.capabilities };
}

/** The InitializeResult for a negotiated version. */
export function initializeResult(protocolVersion: string, policyName: string): JsonObject {
  return {
    protocolVersion,
    capabilities: SERVER_CAPABILITIES,
    serverInfo: SERVER_INFO,
    instructions: `The session semantics of mcp-resume-spec's model under policy "${policyName}".`,
  };
}

/**
 * Whether a client on `version` is sent priming events. Revisions are dates, so string order is
 * release order.
 */
export function wantsPriming(version: string): boolean {
  return version >= PRIMING_SINCE;
}
