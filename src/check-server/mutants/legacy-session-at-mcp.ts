/**
 * Code mutant `legacy-session-at-mcp`: the /mcp resume handler finds a legacy session in the one
 * session store and resumes it as the transport that established it (seed 000's bridging shim):
 * the machine is told a `GET /mcp` with `Last-Event-ID` for a legacy session came under legacy SSE,
 * so the legacy cursor is placed and the legacy stream replayed, then carried, at /mcp. Other
 * requests at /mcp with a legacy session ID are still refused (404).
 */
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

export function legacySessionAtMcp(): Mutation {
  return {
    name: 'legacy-session-at-mcp',
    transport: ({ event, arrivedAt, established }) => (event === 'RESUME' && arrivedAt === 'streamable' && established === 'sse' ? 'sse' : arrivedAt),
  };
}

export const mutant = codeMutant(
  'legacy-session-at-mcp',
  'A legacy session and its cursor presented at /mcp are resumed there (bridging in the resume handler): the legacy stream is replayed and carried at /mcp',
  ['no-cross-transport-resume'],
  legacySessionAtMcp,
);

export default mutant.start;
