/**
 * The reference server: the model served as a real MCP server over HTTP (both transports).
 */
export { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './server.js';
export { Session, type SessionState } from './session.js';
export { defaultSessionLimits, type SessionLimits } from './session-store.js';
export {
  noMutation,
  type EventIdCodec,
  type Mutation,
  type ResumeEvent,
  type ResumeInput,
  type RouteResumeInput,
  type SessionFacts,
  type TransportInput,
} from './mutation.js';
export {
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  STREAMABLE_PROTOCOL_VERSIONS,
  SERVER_CAPABILITIES,
} from './protocol.js';
export { TOOL_LIST } from './tools.js';
