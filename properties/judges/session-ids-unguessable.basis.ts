/** Why `session-ids-unguessable` is required: a SHOULD of the transport in every streamable revision. */
import { quotedIn, sections, silentInLegacy, streamableRevisions, type PropertyDefinition } from '../definition.js';

export const definition: PropertyDefinition = {
  id: 'session-ids-unguessable',
  statement: 'session IDs cannot be guessed from others: no counter, no clock, enough bits that vary',
  level: 'should',
  quotes: [
    ...quotedIn(
      streamableRevisions,
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
    'The transport page asks unguessable IDs as a SHOULD in 2025-03-26, 2025-06-18 and 2025-11-25 alike ("cryptographically secure"), and that is the level here. The Security Best Practices page of 2025-06-18 and 2025-11-25 says MUST ("secure, non-deterministic session IDs"); it is quoted as supporting text, not as the level: it was published among the specification pages of those revisions, but the MCP site has since moved it to its documentation section (the old address redirects), so a maintainer may read it as guidance, and the transport page itself says SHOULD. From the few IDs a check sees, the judge fails only what they plainly show: two or more IDs that are one text followed by numbers within 2^40 of each other (a counter or a clock under a prefix), whichever transport minted them; and, among four or more IDs of one transport (each transport is judged apart, so random IDs on one cannot hide a counter on the other), numbers within 2^40 of each other after a shared prefix, or fewer than 40 bits varying, counted per character position that varies across the IDs, in the smallest common alphabet of the characters seen there (decimal, hex, base36, base64...). Random IDs of 64 bits or more, in any of those encodings, pass; a generator that looks random but is not cryptographically secure cannot be told from a few samples and passes too.',
  silences: [silentInLegacy('The HTTP+SSE transport defines no session ID.')],
};
