/**
 * Client adapter: this project's checking client (`src/wire/`) in its correct setting (cursor
 * on drain, dedup, re-initialize on 404, no silent re-send, same-transport resume, bounded waits).
 * `mcp-resume-spec check-client --adapter src/check-client/adapters/checking.ts`.
 */
import { checkingClientFactory } from './checking-client.js';

export default () => checkingClientFactory();
