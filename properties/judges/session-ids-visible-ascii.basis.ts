/** Why `session-ids-visible-ascii` is required: a MUST of the streamable transport in every revision that has it. */
import { quotedIn, sections, silentInLegacy, streamableRevisions, type PropertyDefinition } from '../definition.js';

export const definition: PropertyDefinition = {
  id: 'session-ids-visible-ascii',
  statement: 'session IDs are visible ASCII (0x21-0x7E)',
  level: 'must',
  quotes: quotedIn(streamableRevisions, sections.sessionManagement, 'The session ID MUST only contain visible ASCII characters (ranging from 0x21 to 0x7E).'),
  silences: [silentInLegacy('The HTTP+SSE transport defines no session ID.')],
};
