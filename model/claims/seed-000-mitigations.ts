/**
 * Seed 000's mitigations and its liveness claim, judged by the model: re-initialization instead
 * of a bridged resume, the log rule for the drain race, and "liveness is identical under both
 * contracts".
 */
import type { Bounds } from '../bounds.js';
import { explore } from '../explore.js';
import { reference, seed000, withKnob, type Policy } from '../policy.js';
import { sessionContext } from '../session-step.js';
import type { ClientStream, World, WorldMessage } from '../world-types.js';
import { heldSession } from '../world.js';
import { grade, judgementOf, yesNo, type Claim, type FoundTrace } from './claim.js';
import { showValue, lattice, knobValue } from './lattice.js';
import { claimBounds, probe } from './probe.js';
import { failsVisiblyAfterRefusedMigration, losesAnEvent, losesOnMigration, reRunsAFailedCall, stalls } from './signatures.js';

const test = 'test/model/claims-000-mitigations.test.ts';

/** One call, a refused migration, one re-initialization and one retry. */
const reinitBounds: Bounds = { ...claimBounds, reinitializes: 1, retries: 1 };

/** Seed 000's mitigated server: IDs namespaced by transport, so a legacy cursor at /mcp is refused and the client re-initializes. */
const mitigated000: Policy = withKnob(seed000, 'eventIds', 'perTransport');

export const reinitialize000: Claim = {
  id: '000-reinitialize-cost',
  seed: '000',
  claim: 'Requiring a client that resumes a bridged legacy session at /mcp to re-initialize instead is slow but correct: the latency is the only cost.',
  test,
  judge() {
    const clients: Array<[string, Policy]> = [
      ["seed 000's client (cursor on receive, retries a timed-out call)", mitigated000],
      ['the reference client (cursor on drain, dedup)', { server: mitigated000.server, client: reference.client }],
    ];
    const rows: string[][] = [];
    let silentInSetting = false;
    let rerunInSetting = false;
    // Seed 000's own client does not retry after re-initializing: a visible failure there is a lost result, a cost beside the latency.
    let visibleInSetting = false;
    let rerunWithRetry = false;
    const traces: FoundTrace[] = [];
    for (const [label, base] of clients) {
      for (const retry of [false, true]) {
        const policy = withKnob(base, 'retryAfterReinitialize', retry);
        const { found, result } = probe(policy, reinitBounds, {
          visible: failsVisiblyAfterRefusedMigration,
          silent: losesOnMigration,
          rerun: reRunsAFailedCall,
        });
        if (!retry) {
          silentInSetting ||= found.silent!;
          rerunInSetting ||= found.rerun!;
          if (base === mitigated000) visibleInSetting ||= found.visible!;
        } else rerunWithRetry ||= found.rerun!;
        rows.push([label, retry ? 'yes' : 'no', yesNo(found.visible!), yesNo(found.silent!), yesNo(found.rerun!)]);
        if (traces.length === 0 && result.matches.visible && !retry) {
          traces.push({
            title: 'The migration refused: the pending call fails visibly, its tool already ran',
            policy,
            bounds: reinitBounds,
            path: result.matches.visible.path,
          });
        }
        if (traces.length === 1 && result.matches.rerun) {
          traces.push({ title: 'Re-initialized, the failed call retried: the tool runs twice', policy, bounds: reinitBounds, path: result.matches.rerun.path });
        }
      }
    }
    return judgementOf(this, {
      verdict: grade({ contradicted: silentInSetting || rerunInSetting || visibleInSetting, boundaryMoved: rerunWithRetry }),
      finding:
        'The 404 on the migration makes the loss visible: the pending call is reported failed, never left waiting, and no migration loses an event silently. ' +
        "But the tool had already run in the old session, and its result is only in that session's log. " +
        (rerunWithRetry
          ? 'A client that re-issues the failed call in the new session (the natural reaction to a failed tool call) runs the tool twice, with either client: re-initialization is correct for delivery, not for a non-idempotent tool. Only an idempotency key, or a client that asks the user, avoids the second run; no server policy can. '
          : 'Retrying it in the new session does not run the tool twice. ') +
        (rerunInSetting
          ? ''
          : "A client that does not retry after a re-initialization (seed 000's retries only on a timeout) runs it once and loses the result visibly. ") +
        (visibleInSetting
          ? "So within the seed's own setting the latency is not the only cost: its client loses the call's result (visibly), and a retry would run the tool twice."
          : ''),
      tables: [
        {
          header: [
            'client',
            'retries a failed call after re-initializing',
            'model: in-flight call fails visibly',
            'model: silent loss on a migration',
            'model: the tool runs twice',
          ],
          rows,
        },
      ],
      traces,
    });
  },
};

/** The last event the server sent on a stream (in the held session's log), as the seed's log rule reads it. */
function lastSent(world: World, stream: ClientStream): string | undefined {
  const session = heldSession(world);
  if (!session) return undefined;
  const log = sessionContext<WorldMessage>(session).log;
  for (let i = log.length - 1; i >= 0; i--) if (log[i]!.stream === stream.id) return log[i]!.id;
  return undefined;
}

/** The drain race: replay after the cursor would skip an event of the stream the application has not processed. */
function raced(world: World, stream: ClientStream): boolean {
  const log = sessionContext<WorldMessage>(heldSession(world)!).log;
  const at = log.findIndex((e) => e.id === stream.cursor);
  return log.slice(0, at + 1).some((e) => e.stream === stream.id && e.message !== undefined && !stream.drained.includes(e.id));
}

export interface LogRuleCounts {
  /** Distinct worlds with a dropped stream the client can resume with its own cursor. */
  situations: number;
  truePositive: number;
  falseAlarm: number;
  missed: number;
}

/** Counts, over every reachable world, how the rule "cursor equals the last sent event" sorts the resumable streams. */
export function countLogRule(policy: Policy, bounds: Bounds): LogRuleCounts {
  const counts: LogRuleCounts = { situations: 0, truePositive: 0, falseAlarm: 0, missed: 0 };
  explore({
    policy,
    bounds,
    visit: (world) => {
      if (world.client.phase !== 'ready' || world.used.resumes >= bounds.resumes) return;
      for (const stream of world.client.streams) {
        const live = world.client.requests.some((r) => r.status === 'pending' && r.stream === stream.id && r.session === world.client.session);
        if (stream.connected || !live) continue;
        counts.situations++;
        const fires = stream.cursor === lastSent(world, stream);
        const race = raced(world, stream);
        if (fires && race) counts.truePositive++;
        else if (fires) counts.falseAlarm++;
        else if (race) counts.missed++;
      }
    },
  });
  return counts;
}

export const logRule000: Claim = {
  id: '000-log-rule',
  seed: '000',
  claim:
    'Logging when a resume cursor equals the last sent-but-unacknowledged event ID is the tell for the drain race; it is the cheapest mitigation and catches the condition even if the others are imperfect.',
  test,
  judge() {
    const rows: string[][] = [];
    let inSetting: LogRuleCounts | undefined;
    for (const cursorAdvance of ['onReceive', 'onDrain'] as const) {
      const counts = countLogRule(withKnob(seed000, 'cursorAdvance', cursorAdvance), claimBounds);
      if (cursorAdvance === 'onReceive') inSetting = counts;
      rows.push([cursorAdvance, String(counts.situations), String(counts.truePositive), String(counts.falseAlarm), String(counts.missed)]);
    }
    const s = inSetting!;
    return judgementOf(this, {
      verdict: grade({ contradicted: s.falseAlarm > 0 || s.missed > 0, boundaryMoved: false }),
      finding:
        'SSE has no acknowledgement: the server never learns which event a client processed, so "sent but unacknowledged" can only be "the last event sent on the stream". ' +
        `With seed 000's client (cursor on receive), of ${s.situations} distinct worlds where a dropped stream can be resumed, the rule fires on ${s.truePositive + s.falseAlarm}: ${s.truePositive} drain races and ${s.falseAlarm} false alarms, where the client had processed everything (a clean drop presents the same cursor as an unclean one); ` +
        `it misses ${s.missed} races, where the server sent on past the cursor's event (a frame in flight at the drop, or one sent to the log after it), so the cursor is no longer the last event sent. ` +
        "With an on-drain cursor there is no race to catch and every firing is a false alarm. The equality is not a tell; the client's cursor policy is.",
      tables: [{ header: ['cursorAdvance', 'resumable worlds', 'fires on a race', 'fires falsely', 'misses a race'], rows }],
    });
  },
};

/** A stalled request waits on a stream that is still connected. */
function waitsOnLiveStream(world: World): boolean {
  return world.client.requests.some((r) => r.status === 'pending' && world.client.streams.some((s) => s.id === r.stream && s.connected));
}

export const liveness000: Claim = {
  id: '000-liveness',
  seed: '000',
  claim:
    'Liveness is preserved under both replay contracts (after the cursor, and from the cursor with dedup); only delivery completeness differs, by exactly one event.',
  test,
  judge() {
    const rows: string[][] = [];
    const stallIn: Record<string, boolean> = {};
    // Whether a stalled request's stream was found closed: that would contradict "liveness is preserved".
    let streamDied = false;
    const traces: FoundTrace[] = [];
    for (const undrained of [1, 2]) {
      for (const cell of lattice(withKnob(seed000, 'dedup', true), ['replay'])) {
        const bounds = { ...claimBounds, undrained };
        const { found, result } = probe(cell.policy, bounds, { stall: stalls, loss: losesAnEvent });
        stallIn[`${knobValue(cell, 'replay')}${undrained}`] = found.stall!;
        if (result.matches.stall && !waitsOnLiveStream(result.matches.stall.world)) streamDied = true;
        if (traces.length === 0 && result.matches.stall) {
          traces.push({
            title: 'After the cursor: the stream is live, the request waits for ever',
            policy: cell.policy,
            bounds,
            path: result.matches.stall.path,
          });
        }
        rows.push([showValue(knobValue(cell, 'replay')), String(undrained), yesNo(found.loss!), yesNo(found.stall!)]);
      }
    }
    const differs = stallIn.exclusive1 !== stallIn.inclusive1;
    return judgementOf(this, {
      // The claim is about the stream's liveness: a stall on a stream that stays open does not
      // contradict it. What moves is the boundary: a request's liveness differs, and with two frames
      // undrained so does delivery.
      verdict: grade({ contradicted: streamDied, boundaryMoved: differs || stallIn.inclusive2 !== stallIn.inclusive1 }),
      finding: differs
        ? `The stream stays live under both contracts, as the claim says; a request's liveness is not identical: after the cursor, the lost result leaves its request waiting on a live stream that brings nothing more (a stall: only a timeout ends it, and the seed's own client blocked indefinitely); from the cursor with dedup and one frame undrained, no request stalls. ${stallIn.inclusive2 ? 'With two frames undrained, replay from the cursor stalls too.' : 'With two frames undrained, replay from the cursor loses a notification, not the result, and still no request stalls.'}`
        : 'Stalls appear (or not) alike under both contracts.',
      tables: [{ header: ['replay', 'undrained at most', 'model: loss', 'model: a request stalls'], rows }],
      traces,
    });
  },
};

export const mitigations000: Claim[] = [reinitialize000, logRule000, liveness000];
