/** Why `no-cross-transport-resume` is required: this project's rule for servers that serve both transports during the migration. */
import { quotedIn, sections, specUrl, type PropertyDefinition } from '../definition.js';
import { reinitializeOn404 } from '../spec-sentences.js';

export const definition: PropertyDefinition = {
  id: 'no-cross-transport-resume',
  statement: 'a session established under one transport is never resumed (2xx stream) under the other; the answer is 404-class so the client re-initializes',
  level: 'policy',
  quotes: [
    ...quotedIn(
      ['2025-03-26', '2025-06-18', '2025-11-25'],
      sections.backwardsCompatibility,
      'Continue to host both the SSE and POST endpoints of the old transport, alongside the new "MCP endpoint" defined for the Streamable HTTP transport.',
    ),
    ...quotedIn(
      ['2025-03-26', '2025-06-18'],
      sections.sessionManagement,
      'A server using the Streamable HTTP transport MAY assign a session ID at initialization time, by including it in an Mcp-Session-Id header on the HTTP response containing the InitializeResult.',
    ),
    ...quotedIn(
      ['2025-11-25'],
      sections.sessionManagement,
      'A server using the Streamable HTTP transport MAY assign a session ID at initialization time, by including it in an MCP-Session-Id header on the HTTP response containing the InitializeResult.',
    ),
    ...reinitializeOn404,
  ],
  rationale:
    "The spec lets a server host both transports during the migration and defines resumption within streamable HTTP only; it says nothing of a session established under HTTP+SSE presented at the MCP endpoint, or the reverse. Graded policy, not derived: a legacy session's ID was never issued in a session-ID header, but the spec says how to answer a terminated session's ID (MUST 404), not an ID the server never issued there, so accepting it breaks no MUST. The model shows that accepting such a resume is what let seed 003 serve requests under capabilities the client never negotiated and seed 000 lose a result; answering 404 makes the client start a new session (a MUST for the client), turning silent corruption into a visible reconnect.",
  claims: ['003-rule', '003-conditions', '000-namespacing'],
  silences: [
    {
      revision: '2024-11-05',
      url: specUrl('2024-11-05', sections.httpWithSse.page, sections.httpWithSse.anchor),
      note: 'The HTTP+SSE transport is the only HTTP transport of this revision: there is no other transport to resume under, no session ID and no resumption.',
    },
  ],
};
