/**
 * `standalone-delivers`: while the session's standalone GET stream stays connected (never dropped,
 * never ended by the server, never resumed), every notification an unsolicited call sends reaches
 * the application. A stream that was resumed is `no-silent-loss`'s to judge.
 */
import { fixtureCalls } from '../fixture-calls.js';
import type { HistoryView } from '../history-view.js';
import { fixtureNotification } from '../messages.js';
import { fail, passCounted, skip, type Judgement } from '../judgement.js';
import { leftSession } from './no-silent-loss.js';

export function judgeStandaloneDelivers(view: HistoryView): Judgement {
  let judged = 0;
  for (const opened of view.exchanges.values()) {
    const origin = opened.conn;
    if (opened.request.purpose !== 'open-standalone' || !view.isAcceptedStream(origin)) continue;
    // Dropped by the client, closed by the server (it MAY), continued by a resume, or left with its
    // session: the stream did not stay connected to the end, so it promised nothing live.
    if ((opened.drop && !opened.drop.atClose) || opened.end || view.connsOfStream(origin).length > 1 || leftSession(view, origin, origin)) continue;
    const session = view.sessionOfConn(origin);
    // The calls made while it was connected whose response arrived: each ran, and sent its notifications.
    const calls = fixtureCalls(view).filter(
      (c) => c.tool === 'emit_unsolicited' && c.request.sessionId === session && c.request.conn > origin && view.responseTo(c.request) !== undefined,
    );
    if (calls.length === 0) continue;
    // Wherever the server put them in the session: the property is that they arrive, not where.
    const drained = new Set<string>();
    for (const e of view.exchanges.values()) {
      if (view.sessionOfConn(e.conn) !== session) continue;
      for (const d of e.drains) {
        const note = d.duplicate ? undefined : fixtureNotification(d.message);
        if (note) drained.add(`${note.label}#${note.seq}`);
      }
    }
    const missing: string[] = [];
    for (const call of calls) {
      for (let seq = 1; seq <= call.count; seq++) if (!drained.has(`${call.label}#${seq}`)) missing.push(`unsolicited notification ${seq} of ${call.label}`);
    }
    judged++;
    if (missing.length > 0) {
      const evidence = calls.map((c) => view.exchanges.get(c.request.conn)!.request.seq);
      return fail(`${view.streamName(origin)} stayed connected, and the application never got ${[...new Set(missing)].join(', ')}`, evidence);
    }
  }
  if (judged > 0) return passCounted(judged, 'connected standalone stream(s) delivered every unsolicited notification');
  return skip('no standalone GET stream stayed connected while an unsolicited call (emit_unsolicited) was answered');
}
