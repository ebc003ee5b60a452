/** `capabilities-honoured`: every request is served under the capabilities negotiated in its session's initialize. */
import { isDeepStrictEqual } from 'node:util';
import type { HistoryView } from '../history-view.js';
import { fixtureCalls } from '../fixture-calls.js';
import { toolJson } from '../messages.js';
import { fail, passCounted, skip, type Judgement } from '../judgement.js';

export function judgeCapabilitiesHonoured(view: HistoryView): Judgement {
  let judged = 0;
  for (const call of fixtureCalls(view)) {
    if (call.tool !== 'session_info') continue;
    const session = view.session(call.request.sessionId);
    const info = toolJson(view.responseTo(call.request));
    if (!session || !info) continue;
    judged++;
    if (!isDeepStrictEqual(info.clientCapabilities ?? {}, session.capabilities ?? {})) {
      return fail(
        `session ${session.id} serves under client capabilities ${JSON.stringify(info.clientCapabilities)}, but the client declared ${JSON.stringify(session.capabilities)}`,
        [call.request.conn],
      );
    }
    // A server that cannot tell its protocol version answers null: nothing to compare.
    if (session.protocolVersion !== undefined && typeof info.protocolVersion === 'string' && info.protocolVersion !== session.protocolVersion) {
      return fail(`session ${session.id} serves under protocol ${String(info.protocolVersion)}, but negotiated ${session.protocolVersion}`);
    }
  }
  return judged > 0 ? passCounted(judged, 'session_info answer(s) matched the negotiated capabilities') : skip('no session_info answer (the candidate may lack the fixture tool)');
}
