/**
 * `capabilities-honoured`: every request is served under the capabilities negotiated in its session's
 * initialize. A failure is graded by the revision the session negotiated: a SHOULD before 2025-06-18.
 */
import { isDeepStrictEqual } from 'node:util';
import { levelIn, stricter, type Level } from '../definition.js';
import type { HistoryView } from '../history-view.js';
import { fixtureCalls } from '../fixture-calls.js';
import { toolJson } from '../messages.js';
import { fail, failAt, passCounted, skip, type Judgement } from '../judgement.js';
import { definition } from './capabilities-honoured.basis.js';

export function judgeCapabilitiesHonoured(view: HistoryView): Judgement {
  let judged = 0;
  // The gravest failure: a session of a MUST revision outranks one of a SHOULD revision.
  let failure: { level: Level; reason: string; evidence: number[] } | undefined;
  const failed = (level: Level, reason: string, evidence: number[] = []) => {
    if (!failure || stricter(level, failure.level)) failure = { level, reason, evidence };
  };
  for (const call of fixtureCalls(view)) {
    if (call.tool !== 'session_info') continue;
    const session = view.session(call.request.sessionId);
    const info = toolJson(view.responseTo(call.request));
    if (!session || !info) continue;
    judged++;
    const level = levelIn(definition, session.protocolVersion);
    if (!isDeepStrictEqual(info.clientCapabilities ?? {}, session.capabilities ?? {})) {
      failed(
        level,
        `session ${session.id} serves under client capabilities ${JSON.stringify(info.clientCapabilities)}, but the client declared ${JSON.stringify(session.capabilities)}`,
        [call.request.conn],
      );
      continue;
    }
    // A server that cannot tell its protocol version answers null: nothing to compare.
    if (session.protocolVersion !== undefined && typeof info.protocolVersion === 'string' && info.protocolVersion !== session.protocolVersion) {
      failed(level, `session ${session.id} serves under protocol ${String(info.protocolVersion)}, but negotiated ${session.protocolVersion}`);
    }
  }
  if (failure) {
    return failure.level === definition.level ? fail(failure.reason, failure.evidence) : failAt(failure.level, failure.reason, failure.evidence);
  }
  return judged > 0
    ? passCounted(judged, 'session_info answer(s) matched the negotiated capabilities')
    : skip('no session_info answer (the candidate may lack the fixture tool)');
}
