/**
 * `at-most-once-effect`: a tool call's side effect runs once, even across drops, resumes and
 * retries. A second run the checker provoked is not counted: a retry after waiting only on streams
 * it got with cursors no real client presents (see `HistoryView.isCursorProbe`), where a server
 * without resumption owes nothing.
 */
import type { HistoryView } from '../history-view.js';
import { fixtureCalls, type FixtureCall } from '../fixture-calls.js';
import { toolJson } from '../messages.js';
import { fail, passCounted, skip, type Judgement } from '../judgement.js';

export function judgeAtMostOnceEffect(view: HistoryView): Judgement {
  let judged = 0;
  const calls = fixtureCalls(view);
  for (const call of calls) {
    if (call.tool === 'session_info') continue;
    const result = toolJson(view.responseTo(call.request));
    if (typeof result?.executions !== 'number' || (result.executions > 1 && provokedRetry(view, calls, call))) continue;
    judged++;
    if (result.executions > 1) {
      return fail(`the side effect of ${call.tool} ${call.label} ran ${result.executions} times`, evidenceOf(view, calls, call));
    }
  }
  return judged > 0 ? passCounted(judged, 'tool result(s), each effect ran once') : skip('no emit result carried an execution count (fixture tools missing?)');
}

/** The earlier runs of `call`'s tool and label. */
function earlierRuns(calls: FixtureCall[], call: FixtureCall): FixtureCall[] {
  return calls.filter((c) => c.tool === call.tool && c.label === call.label && c.request.conn < call.request.conn);
}

/** The client's waits for the response to `call` that ended in a timeout. */
function timedOutWaits(view: HistoryView, call: FixtureCall) {
  return view.history.entries.filter((e) => e.type === 'failure' && e.reason === 'timeout' && e.awaiting === call.request.id);
}

/**
 * What the double effect rests on: the waits that ended without a result, when a retry followed
 * them (the loss or stall that made the client retry is the same observation), and the entry that
 * carried the result counting more than one run.
 */
function evidenceOf(view: HistoryView, calls: FixtureCall[], call: FixtureCall): number[] {
  const response = view.responseTo(call.request);
  const carried = view.history.entries.find((e) => (e.type === 'receive' && e.message === response) || (e.type === 'body' && e.json === response));
  // Waits on cursor probes are the checker's own, as no-silent-stall reads them: not what made a client retry.
  const waits = earlierRuns(calls, call)
    .flatMap((c) => timedOutWaits(view, c))
    .filter((w) => w.type === 'failure' && !view.isCursorProbe(w.conn));
  return [...waits.map((e) => e.seq), ...(carried ? [carried.seq] : [])];
}

/** Whether every earlier run of `call`'s tool and label was abandoned after waits on cursor probes only. */
function provokedRetry(view: HistoryView, calls: FixtureCall[], call: FixtureCall): boolean {
  const earlier = earlierRuns(calls, call);
  return (
    earlier.length > 0 &&
    earlier.every((c) => {
      const waits = timedOutWaits(view, c);
      return waits.length > 0 && waits.every((w) => w.type === 'failure' && view.isCursorProbe(w.conn));
    })
  );
}
