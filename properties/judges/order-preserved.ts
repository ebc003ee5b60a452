/**
 * `order-preserved`: per stream, messages reach the application in the order they were sent,
 * each once. A retry re-sends a call's notifications under the same label (on the legacy stream,
 * on the same stream), so a label may start over once per call that carries it.
 */
import type { HistoryView } from '../history-view.js';
import { fixtureNotification, isResponse } from '../messages.js';
import { fail, passCounted, skip, type Judgement } from '../judgement.js';
import { fixtureCalls } from '../fixture-calls.js';

export function judgeOrderPreserved(view: HistoryView): Judgement {
  const callsPerLabel = new Map<string, number>();
  const labelOfRequest = new Map<string, string>();
  for (const call of fixtureCalls(view)) {
    if (call.tool === 'session_info') continue;
    callsPerLabel.set(call.label, (callsPerLabel.get(call.label) ?? 0) + 1);
    labelOfRequest.set(JSON.stringify(call.request.id), call.label);
  }
  let judged = 0;
  const origins = new Set([...view.exchanges.keys()].map((c) => view.originOf(c)));
  for (const origin of origins) {
    const drains = view.connsOfStream(origin).flatMap((c) => view.exchanges.get(c)!.drains.filter((d) => !d.duplicate));
    const lastSeq = new Map<string, number>();
    const runs = new Map<string, number>();
    const responses = new Set<string>();
    const answeredPerLabel = new Map<string, number>();
    let fixtureMessages = 0;
    for (const d of drains) {
      const note = fixtureNotification(d.message);
      if (note) {
        fixtureMessages++;
        // A call's response comes after all its notifications: once every call with this label is answered, none may follow.
        if ((answeredPerLabel.get(note.label) ?? 0) >= (callsPerLabel.get(note.label) ?? Infinity)) {
          return fail(`notification ${note.seq} of ${note.label} reached the application after the response to its call on ${view.streamName(origin)}`, [
            d.seq,
          ]);
        }
        const previous = lastSeq.get(note.label);
        if (previous !== undefined && note.seq <= previous) {
          // Starting over is a new call with this label (a retry); more starts than calls is a repeat or a reordering.
          const started = (runs.get(note.label) ?? 1) + 1;
          if (started > (callsPerLabel.get(note.label) ?? 1) || note.seq !== 1) {
            const what = note.seq === previous ? 'twice' : 'out of order';
            return fail(`notification ${note.seq} of ${note.label} reached the application ${what} on ${view.streamName(origin)} (after ${previous})`, [d.seq]);
          }
          runs.set(note.label, started);
        }
        lastSeq.set(note.label, note.seq);
      } else if (isResponse(d.message)) {
        fixtureMessages++;
        const key = JSON.stringify(d.message.id);
        if (responses.has(key)) return fail(`the response to request ${key} reached the application twice on ${view.streamName(origin)}`, [d.seq]);
        responses.add(key);
        const label = labelOfRequest.get(key);
        if (label !== undefined) answeredPerLabel.set(label, (answeredPerLabel.get(label) ?? 0) + 1);
      }
    }
    if (fixtureMessages >= 2) judged++;
  }
  return judged > 0 ? passCounted(judged, 'stream(s) delivered in order, each message once') : skip('no stream delivered two messages to judge');
}
