/** Why `capabilities-honoured` is required: derived from the lifecycle's MUST (a SHOULD before 2025-06-18). */
import { quotedIn, sections, type PropertyDefinition } from '../definition.js';

export const definition: PropertyDefinition = {
  id: 'capabilities-honoured',
  statement: "every request is served under the capabilities negotiated in that session's initialize",
  level: 'derived',
  quotes: [
    ...quotedIn(
      ['2024-11-05', '2025-03-26'],
      sections.operation,
      'During the operation phase, the client and server exchange messages according to the negotiated capabilities.\nBoth parties SHOULD:\n- Respect the negotiated protocol version\n- Only use capabilities that were successfully negotiated',
      'should',
    ),
    ...quotedIn(
      ['2025-06-18', '2025-11-25'],
      sections.operation,
      'During the operation phase, the client and server exchange messages according to the negotiated capabilities.\nBoth parties MUST:\n- Respect the negotiated protocol version\n- Only use capabilities that were successfully negotiated',
    ),
  ],
  derivation:
    "The fixture tool session_info reports the client capabilities and protocol version a server serves a session under. Serving under any other profile than the one negotiated in that session's initialize (e.g. a default profile after a resume) means using capabilities that were not successfully negotiated, or not respecting the negotiated protocol version: a MUST from 2025-06-18, a SHOULD in 2024-11-05 and 2025-03-26. The judge reads what the server reports through session_info: that is evidence of the profile the server would use, not its use itself (a server may report one profile and act on another, or report none), so a pass says the report matched, and a failure rests on the server's own word.",
  weaker: {
    level: 'should',
    when: 'the session negotiated 2024-11-05 or 2025-03-26',
    why: 'Those revisions say "Both parties SHOULD" respect the negotiated protocol version and only use capabilities that were successfully negotiated; the MUST comes with 2025-06-18. A failure is graded by the revision its session negotiated.',
  },
  claims: ['003-incident'],
  silences: [],
};
