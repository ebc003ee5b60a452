/** Why `no-silent-stall` is required: the transport's SHOULD that a request's stream eventually carries its response. */
import { quotedIn, sections, silentInLegacy, type PropertyDefinition } from '../definition.js';

export const definition: PropertyDefinition = {
  id: 'no-silent-stall',
  statement: 'every request ends in its response or in an error that tells the client what to do',
  level: 'should',
  quotes: [
    ...quotedIn(
      ['2025-03-26'],
      sections.sending,
      'The SSE stream SHOULD eventually include one JSON-RPC response per each JSON-RPC request sent in the POST body.',
    ),
    ...quotedIn(
      ['2025-03-26'],
      sections.sending,
      'The server SHOULD NOT close the SSE stream before sending a JSON-RPC response per each received JSON-RPC request, unless the session expires.',
    ),
    ...quotedIn(['2025-06-18'], sections.sending, 'The SSE stream SHOULD eventually include JSON-RPC response for the JSON-RPC request sent in the POST body.'),
    ...quotedIn(
      ['2025-06-18'],
      sections.sending,
      'The server SHOULD NOT close the SSE stream before sending the JSON-RPC response for the received JSON-RPC request, unless the session expires.',
    ),
    ...quotedIn(
      ['2025-11-25'],
      sections.sending,
      'The SSE stream SHOULD eventually include a JSON-RPC response for the JSON-RPC request sent in the POST body.',
    ),
    ...quotedIn(['2025-03-26', '2025-06-18', '2025-11-25'], sections.sending, 'Disconnection SHOULD NOT be interpreted as the client cancelling its request.'),
  ],
  derivation:
    'JSON-RPC 2.0, which every MCP message must follow, has a server reply to every request, but the transport lets a connection end before the reply is delivered; what it requires of the stream is a SHOULD: the stream eventually carries the response. A request left waiting on a stream the server keeps open and quiet (or accepted as resumed) breaks that SHOULD and tells the client nothing to act on.',
  claims: ['003-quiet-stream'],
  silences: [silentInLegacy('The HTTP+SSE transport says nothing on when a response arrives on the SSE stream.')],
};
