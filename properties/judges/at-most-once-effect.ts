/** `at-most-once-effect`: a tool call's side effect runs once, even across drops, resumes and retries. */
import type { HistoryView } from '../history-view.js';
import { fixtureCalls } from '../fixture-calls.js';
import { toolJson } from '../messages.js';
import { fail, pass, skip, type Judgement } from '../judgement.js';

export function judgeAtMostOnceEffect(view: HistoryView): Judgement {
  let judged = 0;
  for (const call of fixtureCalls(view)) {
    if (call.tool === 'session_info') continue;
    const result = toolJson(view.responseTo(call.request));
    if (typeof result?.executions !== 'number') continue;
    judged++;
    if (result.executions > 1) {
      return fail(`the side effect of ${call.tool} ${call.label} ran ${result.executions} times`, [call.request.conn]);
    }
  }
  return judged > 0 ? pass(`${judged} tool result(s), each effect ran once`) : skip('no emit result carried an execution count (fixture tools missing?)');
}
