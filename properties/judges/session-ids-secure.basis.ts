/** Why `session-ids-secure` is required: MUSTs of the transport and (from 2025-06-18) of the security best practices. */
import { quotedIn, sections, silentInLegacy, streamableRevisions, type PropertyDefinition } from '../definition.js';

export const definition: PropertyDefinition = {
  id: 'session-ids-secure',
  statement: 'session IDs are visible ASCII (0x21-0x7E) and unguessable',
  level: 'must',
  quotes: [
    ...quotedIn(
      streamableRevisions,
      sections.sessionManagement,
      'The session ID MUST only contain visible ASCII characters (ranging from 0x21 to 0x7E).',
    ),
    ...quotedIn(
      ['2025-03-26'],
      sections.sessionManagement,
      'The session ID SHOULD be globally unique and cryptographically secure (e.g., a securely generated UUID, a JWT, or a cryptographic hash).',
      'should',
    ),
    ...quotedIn(
      ['2025-06-18', '2025-11-25'],
      sections.sessionManagement,
      'The session ID SHOULD be globally unique and cryptographically secure (e.g., a securely generated UUID, a JWT, or a cryptographic hash).',
    ),
    ...quotedIn(
      ['2025-06-18', '2025-11-25'],
      sections.sessionHijacking,
      'MCP servers MUST use secure, non-deterministic session IDs. Generated session IDs (e.g., UUIDs) SHOULD use secure random number generators. Avoid predictable or sequential session identifiers that could be guessed by an attacker.',
    ),
  ],
  derivation:
    'Visible ASCII is a MUST in every streamable revision. Unguessable is a MUST from 2025-06-18 ("secure, non-deterministic session IDs"); 2025-03-26 asks it only as a SHOULD ("cryptographically secure"). The Security Best Practices page was published among the specification pages of those revisions; the MCP site has since moved it to its documentation section (the old address redirects), so a maintainer may read that MUST as guidance: the transport page itself asks unguessable IDs as a SHOULD. From the few IDs a check sees, the judge fails only what they plainly show: numbers within 2^40 of each other after a shared prefix (a counter, a clock), or fewer than 40 bits varying, counted per character position that varies across the IDs, in the smallest common alphabet of the characters seen there (decimal, hex, base36, base64...). Random IDs of 64 bits or more, in any of those encodings, pass; a generator that looks random but is not cryptographically secure cannot be told from a few samples and passes too.',
  silences: [silentInLegacy('The HTTP+SSE transport defines no session ID.')],
};
