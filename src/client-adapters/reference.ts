/**
 * Client adapter: this project's reference client in its correct setting (cursor on processing,
 * dedup, re-initialize on 404, no silent re-send, same-transport resume, bounded waits).
 * `mcp-resume-spec check-client --adapter src/client-adapters/reference.ts`.
 */
import { referenceClientFactory } from './reference-client.js';

export default () => referenceClientFactory();
