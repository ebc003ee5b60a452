/** Why `terminated-session-404` is required: a MUST of every streamable HTTP revision. */
import { quotedIn, sections, silentInLegacy, type PropertyDefinition } from '../definition.js';

export const definition: PropertyDefinition = {
  id: 'terminated-session-404',
  statement: 'after DELETE, requests with that session ID get 404',
  level: 'must',
  quotes: [
    ...quotedIn(
      ['2025-03-26', '2025-06-18', '2025-11-25'],
      sections.sessionManagement,
      'The server MAY terminate the session at any time, after which it MUST respond to requests containing that session ID with HTTP 404 Not Found.',
    ),
    ...quotedIn(
      ['2025-03-26', '2025-06-18'],
      sections.sessionManagement,
      'Clients that no longer need a particular session (e.g., because the user is leaving the client application) SHOULD send an HTTP DELETE to the MCP endpoint with the Mcp-Session-Id header, to explicitly terminate the session. The server MAY respond to this request with HTTP 405 Method Not Allowed, indicating that the server does not allow clients to terminate sessions.',
    ),
    ...quotedIn(
      ['2025-11-25'],
      sections.sessionManagement,
      'Clients that no longer need a particular session (e.g., because the user is leaving the client application) SHOULD send an HTTP DELETE to the MCP endpoint with the MCP-Session-Id header, to explicitly terminate the session. The server MAY respond to this request with HTTP 405 Method Not Allowed, indicating that the server does not allow clients to terminate sessions.',
    ),
  ],
  derivation:
    'A DELETE the server answers with 2xx is the explicit termination the spec describes, so the MUST applies to every later request with that session ID. A DELETE answered 405 (which the spec allows) terminates nothing and is not judged.',
  silences: [silentInLegacy('The HTTP+SSE transport defines no session ID and no DELETE.')],
};
