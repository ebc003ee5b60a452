/** Why `no-cross-session-replay` is required: derived from the MUST NOT on replaying another stream's messages. */
import { quotedIn, sections, silentInLegacy, streamableRevisions, type PropertyDefinition } from '../definition.js';

export const definition: PropertyDefinition = {
  id: 'no-cross-session-replay',
  statement: "a cursor minted in session A, presented with session B's id, never yields A's events",
  level: 'derived',
  quotes: [
    ...quotedIn(streamableRevisions, sections.resumability, 'The server MUST NOT replay messages that would have been delivered on a different stream.'),
    ...quotedIn(
      streamableRevisions,
      sections.resumability,
      'If present, the ID MUST be globally unique across all streams within that session—or all streams with that specific client, if session management is not in use.',
    ),
  ],
  derivation:
    "Every stream belongs to one session, so a GET that carries session B's session ID resumes a stream of B; each message of session A would have been delivered on a stream of A, which is a different stream. Replaying it breaks the MUST NOT. Event IDs are unique only within a session, so a cursor minted in A may also name an event of B (a server that counts event IDs per session mints the same ones in both): resuming B's stream from it is then right, and the judge reads only cursors that name no event of B.",
  silences: [silentInLegacy('The HTTP+SSE transport has no resumption and no session ID.')],
};
