/** Why `standalone-delivers` is required: this project's rule; the spec lets a server send on the standalone GET stream (a MAY) and states no delivery requirement. */
import { quotedIn, sections, silentInLegacy, streamableRevisions, type PropertyDefinition } from '../definition.js';

export const definition: PropertyDefinition = {
  id: 'standalone-delivers',
  statement:
    'while the standalone GET stream stays connected (never dropped, closed or resumed), every notification an unsolicited call sends reaches the client application',
  level: 'policy',
  quotes: [
    ...quotedIn(streamableRevisions, sections.listening, 'The server MAY send JSON-RPC requests and notifications on the stream.'),
    ...quotedIn(streamableRevisions, sections.listening, 'The server MAY close the SSE stream at any time.'),
    ...quotedIn(
      streamableRevisions,
      sections.multipleConnections,
      'The server MUST send each of its JSON-RPC messages on only one of the connected streams; that is, it MUST NOT broadcast the same message across multiple streams.',
    ),
  ],
  rationale:
    'The spec lets a server send notifications on the standalone GET stream (a MAY) and close it at any time, and its MUST about connected streams is, by its own "that is", about not broadcasting; no MUST or SHOULD says that a notification a server sends on a stream that stays connected arrives. This project requires it: the fixture tool answered that it ran, so it sent its notifications; on a stream the client never left, nothing tells the client one is missing, and no resume will ever bring it. A stream the server closed, the client dropped or a resume continued is not judged here (a resumed one is no-silent-loss\'s).',
  silences: [silentInLegacy('The HTTP+SSE transport has no standalone GET stream: every message of a session goes on its one SSE stream.')],
};
