/**
 * `no-silent-loss`: when the server accepts a resume of a stream the client kept, the application
 * ends with every message that stream carries (its notifications and its response), none skipped.
 */
import { resumptionNotOffered, type HistoryView } from '../history-view.js';
import { fixtureCalls } from '../fixture-calls.js';
import { fixtureNotification, isResponseTo } from '../messages.js';
import { fail, failAt, passCounted, skip, type Judgement } from '../judgement.js';

/** A message the stream owes the application: a test against drained messages, and for a response its request's ID. */
interface Expected {
  what: string;
  seen: (drained: unknown[]) => boolean;
  response?: number | string;
}

/** What must reach the application on a logical stream, in the order the stream carries it. */
function expectedOn(view: HistoryView, origin: number): Expected[] {
  const expected: Expected[] = [];
  const opened = view.exchanges.get(origin)!.request;
  const session = view.sessionOfConn(origin);
  const calls = fixtureCalls(view);
  for (const request of view.requests) {
    if (request.streamConn !== origin || request.conn < opened.conn) continue;
    const call = calls.find((c) => c.request === request);
    if (call?.tool === 'emit') {
      for (let seq = 1; seq <= call.count; seq++) {
        expected.push({
          what: `notification ${seq} of ${call.label}`,
          seen: (ms) => ms.some((m) => fixtureNotification(m as never)?.label === call.label && fixtureNotification(m as never)?.seq === seq),
        });
      }
    }
    expected.push({
      what: `the response to ${request.method} id ${JSON.stringify(request.id)}`,
      seen: (ms) => ms.some((m) => isResponseTo(m as never, request.id)),
      response: request.id,
    });
  }
  if (opened.purpose === 'open-standalone') {
    for (const call of calls) {
      if (call.tool !== 'emit_unsolicited' || call.request.sessionId !== session || call.request.conn < origin) continue;
      for (let seq = 1; seq <= call.count; seq++) {
        expected.push({
          what: `unsolicited notification ${seq} of ${call.label}`,
          seen: (ms) => ms.some((m) => fixtureNotification(m as never)?.label === call.label && fixtureNotification(m as never)?.seq === seq),
        });
      }
    }
  }
  return expected;
}

/** Whether the client left the stream's session after `conn`: it DELETEd it or initialized another. */
export function leftSession(view: HistoryView, origin: number, conn: number): boolean {
  const session = view.sessionOfConn(origin);
  for (const e of view.exchanges.values()) {
    if (e.conn <= conn) continue;
    if (e.request.purpose === 'initialize' || e.request.purpose === 'open-legacy') return true;
    if (e.request.purpose === 'delete' && e.request.sessionId === session) return true;
  }
  return false;
}

/**
 * Where a loss that the replay itself does not show was seen: when nothing the stream carries after
 * a missing message reached the application, the client learned of the loss only when its wait for
 * a missing response on the stream ended without it (those waits' entries). Undefined when the
 * replay showed a gap, or no such wait ended after the first resume: the resumes are the evidence then.
 * The gap test reads `expected` in request order, which on a stream several requests share (the
 * legacy or the standalone stream) need not be the order it carried them: it only moves the anchor.
 */
function lossSeen(view: HistoryView, conns: number[], expected: Expected[], missing: Expected[], resumed: number): number[] | undefined {
  const firstMissing = expected.indexOf(missing[0]!);
  if (expected.slice(firstMissing).some((e) => !missing.includes(e))) return undefined;
  const waits = view.history.entries.filter(
    (e) =>
      e.type === 'failure' &&
      e.reason === 'timeout' &&
      e.seq > resumed &&
      e.awaiting !== undefined &&
      e.conn !== undefined &&
      conns.includes(e.conn) &&
      missing.some((m) => m.response === e.awaiting),
  );
  return waits.length > 0 ? waits.map((e) => e.seq) : undefined;
}

export function judgeNoSilentLoss(view: HistoryView): Judgement {
  let judged = 0;
  const origins = new Set<number>();
  for (const resume of view.resumes()) {
    // A GET without Last-Event-ID is not a resume (it opens a new stream): it promises no replay.
    // Nor is a made-up cursor, or one for a stream that never offered a cursor: no real client
    // presents those, and a server that ignores them (as one without resumption does) loses nothing.
    if (!view.isClientResume(resume.conn)) continue;
    const origin = view.originOf(resume.conn);
    if (origin !== resume.conn && view.isAcceptedStream(resume.conn)) origins.add(origin);
  }
  // The first stream that lost a response (SHOULD), else the first that lost notifications only (POLICY).
  let notificationsOnly: Judgement | undefined;
  for (const origin of origins) {
    const conns = view.connsOfStream(origin);
    const last = view.exchanges.get(conns[conns.length - 1]!)!;
    // A stream the client gave up on (its last connection dropped, or the session left) promises
    // nothing more; nor does one whose last resume was refused (the client was told), or was one
    // the checker made up.
    if (!view.isAcceptedStream(last.conn) || (last.drop && !last.drop.atClose) || leftSession(view, origin, last.conn)) continue;
    if (last.conn !== origin && !view.isClientResume(last.conn)) continue;
    const drained = conns.flatMap((c) =>
      view.exchanges
        .get(c)!
        .drains.filter((d) => !d.duplicate)
        .map((d) => d.message),
    );
    const expected = expectedOn(view, origin);
    const missing = expected.filter((e) => !e.seen(drained));
    judged++;
    if (missing.length > 0) {
      const resumes = conns.slice(1).map((c) => view.exchanges.get(c)!.request);
      const reason = `after the server accepted a resume of ${view.streamName(origin)} (Last-Event-ID ${resumes.map((r) => r.lastEventId).join(', ')}), the application never got ${missing.map((m) => m.what).join(', ')}`;
      const evidence = lossSeen(view, conns, expected, missing, resumes[0]!.seq) ?? resumes.map((r) => r.seq);
      if (missing.some((m) => m.response !== undefined)) return fail(reason, evidence);
      // Notifications alone: no SHOULD says a replay carries them (the property's `weaker` grade).
      notificationsOnly ??= failAt('policy', reason, evidence);
    }
  }
  if (notificationsOnly) return notificationsOnly;
  if (judged > 0) return passCounted(judged, 'resumed stream(s) delivered everything');
  return skip(view.offersResumption() ? 'no resume was accepted for a stream the client kept' : resumptionNotOffered);
}
