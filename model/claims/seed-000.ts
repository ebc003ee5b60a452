/**
 * The claims of seed 000 ("an instance loses tool-call state exactly once after an
 * SSE-to-streamable-HTTP migration"), each judged by exploring the model.
 */
import { seed000, withKnob, type Policy } from '../policy.js';
import { canStep } from '../world-steps.js';
import type { World, WorldStep } from '../world-types.js';
import { initialWorld, step } from '../world.js';
import { explore } from '../explore.js';
import { grade, yesNo, type Claim, judgementOf, type FindingTable } from './claim.js';
import { lattice, showValue, knobValue } from './lattice.js';
import { claimBounds, probe } from './probe.js';
import {
  deliversTwice,
  losesAnEvent,
  losesOnMigration,
  losesOnStreamableOnly,
  losesSeveralEvents,
  losesWithoutMigration,
  seed000Signature,
} from './signatures.js';
import { lostEvents } from '../invariants.js';
import { eventIdsEncodeStreamText } from '../spec-text.js';
import { acceptsMigration } from './signatures.js';

const test000 = 'test/model/claims-000.test.ts';

/**
 * What the official SDK client's cursor does (pinned against its code over HTTP by
 * test/client/sdk-cursor.test.ts): the one sentence the docs and claims say about it.
 */
export const SDK_CLIENT_CURSOR =
  'The official SDK client 1.32.2 is not such a client: its resumption token moves in the same synchronous step that hands the message to the application (onmessage), so no cut falls between them and its resume loses nothing (test/client/sdk-cursor.test.ts).';

/** The incident itself: its signature is reachable, and what else the same conditions do. */
export const incident000: Claim = {
  id: '000-incident',
  seed: '000',
  claim:
    "Under the incident's conditions a client that migrates to /mcp with a legacy-minted Last-Event-ID is accepted and silently misses the tool-call result it waits for: exactly one missing response, on the first resume after the migration, with the cursor equal to the missing event's ID.",
  test: test000,
  judge() {
    const { result } = probe(seed000, claimBounds, {
      signature: seed000Signature,
      anyLoss: losesAnEvent,
      severalLost: losesSeveralEvents,
      lossWithoutMigration: losesWithoutMigration,
    });
    const m = result.matches;
    const signature = m.signature;
    const traces = [];
    if (signature) traces.push({ title: 'The incident, shortest', policy: seed000, bounds: claimBounds, path: signature.path });
    if (m.anyLoss) traces.push({ title: 'The shortest loss of any event', policy: seed000, bounds: claimBounds, path: m.anyLoss.path });
    if (m.severalLost) traces.push({ title: 'Two events lost by one resume', policy: seed000, bounds: claimBounds, path: m.severalLost.path });
    const wider = !!m.severalLost || !!m.lossWithoutMigration;
    return judgementOf(this, {
      // The seed's setting has one frame undrained; two lost at once, or a loss without a migration, lie outside it.
      verdict: grade({ contradicted: !signature, boundaryMoved: wider }),
      finding: !signature
        ? "The model finds no world with the incident's signature."
        : `The signature is reachable in ${signature.path.length} steps: the result is received, the connection drops before the application drains it, and the migration's replay starts after it. ` +
          `It is one case of a wider failure: the shortest loss takes ${m.anyLoss?.path.length} steps and ${m.lossWithoutMigration ? 'needs no migration (the same resume over the legacy transport loses it too)' : 'needs a migration'}; ` +
          `${m.severalLost ? `and a drop with two frames received but not drained loses both (${m.severalLost.path.length} steps), so "exactly one" holds only when one frame was undrained.` : 'no resume loses more than one event.'}`,
      traces,
    });
  },
};

const conditionKnobs = ['eventIds', 'bridging', 'replay', 'cursorAdvance'] as const;

interface ConditionCell {
  values: string[];
  unclean: number;
  undrained: number;
  predicted: boolean;
  signature: boolean;
  onMigration: boolean;
  anywhere: boolean;
}

let conditionCells: ConditionCell[] | undefined;

/** Every cell of the four knobs x clean/unclean drops x one or two frames undrained, explored once for both claims. */
function exploreConditions(): ConditionCell[] {
  if (conditionCells) return conditionCells;
  conditionCells = [];
  for (const undrained of [1, 2]) {
    for (const unclean of [1, 0]) {
      for (const cell of lattice(seed000, conditionKnobs)) {
        const bounds = { ...claimBounds, unclean, undrained };
        const { found } = probe(cell.policy, bounds, { signature: seed000Signature, onMigration: losesOnMigration, anywhere: losesAnEvent });
        const predicted =
          knobValue(cell, 'eventIds') === 'shared' &&
          knobValue(cell, 'bridging') === true &&
          knobValue(cell, 'replay') === 'exclusive' &&
          knobValue(cell, 'cursorAdvance') === 'onReceive' &&
          unclean === 1;
        conditionCells.push({
          values: cell.values.map((v) => showValue(v.value)),
          unclean,
          undrained,
          predicted,
          signature: found.signature!,
          onMigration: found.onMigration!,
          anywhere: found.anywhere!,
        });
      }
    }
  }
  return conditionCells;
}

const dropsLabel = (cell: ConditionCell) => (cell.unclean ? 'unclean' : 'clean only');

/** The four conditions of validity, for the seed's own signature. */
export const conditions000: Claim = {
  id: '000-conditions',
  seed: '000',
  claim:
    "The incident (its signature: exactly one missing result, on the first resume after the migration, the cursor equal to the missing event's ID) needs all four conditions at once: a shared event-ID allocator, session bridging, a cursor that names an event the client has not processed (an unclean drop after send, before drain), and replay strictly after the cursor. Remove any one and it does not manifest.",
  test: test000,
  judge() {
    const cells = exploreConditions();
    const disagree = cells.filter((c) => c.signature !== c.predicted);
    const oneFrame = cells.filter((c) => c.undrained === 1);
    const table: FindingTable = {
      header: [...conditionKnobs, 'drops', 'undrained at most', 'seed predicts the incident', "model: the seed's signature", 'model: a loss on a migration'],
      rows: cells.map((c) => [...c.values, dropsLabel(c), String(c.undrained), yesNo(c.predicted), yesNo(c.signature), yesNo(c.onMigration)]),
    };
    const migrationAgreesWithOneFrame = oneFrame.every((c) => c.onMigration === c.predicted);
    return judgementOf(this, {
      verdict: grade({ contradicted: disagree.length > 0, boundaryMoved: false }),
      finding:
        (disagree.length === 0
          ? `The seed's signature is reachable in exactly the ${cells.filter((c) => c.predicted).length / 2} cell the seed predicts, with one frame undrained or two, and in none of the other ${cells.length / 2 - 1}: each of the four conditions is necessary for it. `
          : `The model disagrees with the seed in ${disagree.length} of ${cells.length} cells. `) +
        (migrationAgreesWithOneFrame
          ? 'With at most one frame undrained (the incident: only the result was), any loss on a migration agrees with the prediction cell by cell too. '
          : '') +
        'A loss of another signature (an event older than the cursor, with two frames undrained, or a loss over one transport) is judged in 000-scope.',
      tables: [table],
    });
  },
};

/**
 * The four conditions read as conditions of any loss of an event, cell by cell: the evidence of
 * 000-scope (the same question as whether a deployment without the migration is safe).
 */
function anyLossTable(): { table: FindingTable; sentence: string } {
  const cells = exploreConditions().filter((c) => c.undrained === 2 || c.unclean === 1);
  const oneFrameAgrees = cells.filter((c) => c.undrained === 1).every((c) => c.anywhere === c.predicted);
  const inclusiveLossOnMigration = cells.some((c) => c.undrained === 2 && c.values[2] === 'inclusive' && c.onMigration);
  return {
    table: {
      header: [...conditionKnobs, 'drops', 'undrained at most', 'seed predicts loss', 'model: loss on a migration', 'model: loss on any resume'],
      rows: cells.map((c) => [...c.values, dropsLabel(c), String(c.undrained), yesNo(c.predicted), yesNo(c.onMigration), yesNo(c.anywhere)]),
    },
    sentence:
      (oneFrameAgrees
        ? 'Read as the conditions of any loss, the four agree with the model cell by cell with one frame undrained. '
        : 'Read as the conditions of any loss (the table), the shared allocator and the bridging are not needed even with one frame undrained: a client whose cursor moves on receive, an unclean drop and replay after the cursor lose an event over a single transport; what the seed calls the migration conditions only decide whether the migration is one of the ways to lose it. ') +
      (inclusiveLossOnMigration
        ? 'With two frames undrained, replay from the cursor loses too (the older frame: the cursor already names the newer), so the replay condition is not necessary either.'
        : ''),
  };
}

/** Extends `path` (valid under `bounds`) by the shortest continuation that reaches `accepts`. */
function continuation(policy: Policy, bounds: typeof claimBounds, path: WorldStep[], accepts: (w: World) => boolean): WorldStep[] | undefined {
  let world = initialWorld({ policy, bounds });
  for (const s of path) {
    if (!canStep(world, s)) return undefined;
    world = step(world, s);
  }
  const result = explore({ policy, bounds, fromWorld: world, signatures: { target: accepts } });
  const match = result.matches.target;
  return match ? [...path, ...match.path] : undefined;
}

/** "Subsequent resumes work correctly." */
export const laterResumes000: Claim = {
  id: '000-later-resumes',
  seed: '000',
  claim: 'Later resumes in the same session work correctly, because by then the client consumes event IDs minted after the migration.',
  test: test000,
  judge() {
    const incident = explore({ policy: seed000, bounds: claimBounds, signatures: { signature: seed000Signature } }).matches.signature;
    const wider = { ...claimBounds, calls: 2, drops: 2, resumes: 2 };
    if (!incident) {
      return judgementOf(this, { verdict: 'refuted', finding: 'The incident itself is not reachable.' });
    }
    const lostAtIncident = lostEvents(incident.world).map((l) => l.event.id);
    const newLoss = (w: World) => lostEvents(w).some((l) => !lostAtIncident.includes(l.event.id));
    const unclean = continuation(seed000, wider, incident.path, newLoss);
    const cleanOnly = continuation(seed000, { ...wider, unclean: 0 }, incident.path, newLoss);
    const traces = unclean ? [{ title: 'The incident, then a second loss in the same session', policy: seed000, bounds: wider, path: unclean }] : [];
    return judgementOf(this, {
      // Unclean drops are the seed's own setting (the incident was one), so a later loss there contradicts the claim.
      verdict: grade({ contradicted: !!unclean, boundaryMoved: !!cleanOnly }),
      finding: unclean
        ? `After the incident, another unclean drop in the same session loses again (${unclean.length} steps in all): the IDs' origin does not matter, the cursor still moves on receive and replay still starts after it. ${cleanOnly ? 'Even clean drops lose events later.' : "Only with clean drops do later resumes lose nothing, which is what the incident's team saw."}`
        : 'No later resume in the same session loses an event.',
      traces,
    });
  },
};

/** "The client's timeout fires, it retries, and the side effect runs twice." */
export const retry000: Claim = {
  id: '000-retry-duplicates',
  seed: '000',
  claim: "The client's request timeout eventually fires and it retries the tool call, so the side effect runs twice.",
  test: test000,
  judge() {
    const bounds = { ...claimBounds, retries: 1 };
    const result = explore({ policy: seed000, bounds });
    const twice = result.violations.find((v) => v.property === 'at-most-once-effect');
    const noRetry = explore({ policy: withKnob(seed000, 'retryOnTimeout', false), bounds }).violations.find((v) => v.property === 'at-most-once-effect');
    return judgementOf(this, {
      verdict: grade({ contradicted: !twice, boundaryMoved: !!noRetry }),
      finding: twice
        ? `The model reaches a second execution in ${twice.path.length} steps: the lost result leaves the request stalled, the timeout fires and the retry runs the tool again. Without retries the effect runs once and the request ends timed out.`
        : 'No world runs a side effect twice.',
      traces: twice ? [{ title: 'Lost result, timeout, retry: two executions', policy: seed000, bounds, path: twice.path }] : [],
    });
  },
};

/** "With clean disconnects > and >= are equivalent." */
export const cleanDrops000: Claim = {
  id: '000-clean-disconnects',
  seed: '000',
  claim:
    'Teams that tested with clean disconnects saw nothing: a clean disconnect comes after the client drained everything, where replay after the cursor and replay from the cursor are equivalent.',
  test: test000,
  judge() {
    const bounds = { ...claimBounds, unclean: 0 };
    const rows: string[][] = [];
    let lossWithClean = false;
    let duplicateWithClean = false;
    let duplicateWithDedup = false;
    for (const cell of lattice(seed000, ['replay', 'dedup'])) {
      const { found } = probe(cell.policy, bounds, { loss: losesAnEvent, twice: deliversTwice });
      lossWithClean ||= found.loss!;
      duplicateWithClean ||= found.twice!;
      // The seed's ">= cursor" contract comes with client dedup: a repeat with dedup on would contradict it.
      if (knobValue(cell, 'dedup') === true) duplicateWithDedup ||= found.twice!;
      rows.push([...cell.values.map((v) => showValue(v.value)), yesNo(found.loss!), yesNo(found.twice!)]);
    }
    return judgementOf(this, {
      verdict: grade({ contradicted: lossWithClean || duplicateWithDedup, boundaryMoved: duplicateWithClean }),
      finding: lossWithClean
        ? 'Clean drops lose events too.'
        : duplicateWithClean
          ? "Clean drops lose nothing under either contract, but they are not equivalent: replay from the cursor sends the cursor's event again, which a client without dedup processes twice."
          : 'Clean drops lose nothing and deliver nothing twice under either contract.',
      tables: [{ header: ['replay', 'dedup', 'loses an event', 'processes one twice'], rows }],
    });
  },
};

/** Seed 000's decision boundary, as a table over replay x cursor advance x dedup. */
export const decision000: Claim = {
  id: '000-decision-boundary',
  seed: '000',
  claim:
    'At-most-once replay (after the cursor) is unsafe against the drain race; at-least-once replay (from the cursor) with client-side dedup by event ID is safe and is the right contract for tool results.',
  test: test000,
  judge() {
    const rows: string[][] = [];
    let inclusiveDedupAlwaysCorrect = true;
    let onDrainExclusiveCorrect = true;
    // The seed's setting: its on-receive client with one frame undrained.
    let inclusiveDedupFailsInSetting = false;
    let exclusiveSafeInSetting = false;
    for (const undrained of [1, 2]) {
      for (const cell of lattice(seed000, ['replay', 'cursorAdvance', 'dedup'])) {
        const bounds = { ...claimBounds, undrained };
        const { found } = probe(cell.policy, bounds, { loss: losesAnEvent, twice: deliversTwice });
        const outcome = found.loss ? (found.twice ? 'loses one, delivers one twice' : 'loses one') : found.twice ? 'delivers one twice' : 'correct';
        if (knobValue(cell, 'replay') === 'inclusive' && knobValue(cell, 'dedup') === true && outcome !== 'correct') {
          inclusiveDedupAlwaysCorrect = false;
          if (undrained === 1) inclusiveDedupFailsInSetting = true;
        }
        if (undrained === 1 && knobValue(cell, 'replay') === 'exclusive' && knobValue(cell, 'cursorAdvance') === 'onReceive' && !found.loss)
          exclusiveSafeInSetting = true;
        if (knobValue(cell, 'replay') === 'exclusive' && knobValue(cell, 'cursorAdvance') === 'onDrain' && outcome !== 'correct')
          onDrainExclusiveCorrect = false;
        rows.push([...cell.values.map((v) => showValue(v.value)), String(undrained), outcome]);
      }
    }
    return judgementOf(this, {
      verdict: grade({
        contradicted: inclusiveDedupFailsInSetting || exclusiveSafeInSetting,
        boundaryMoved: !inclusiveDedupAlwaysCorrect || onDrainExclusiveCorrect,
      }),
      finding:
        (inclusiveDedupAlwaysCorrect
          ? 'Replay from the cursor with dedup is correct in every row. '
          : 'Replay from the cursor with dedup is correct only while at most one frame is received and not drained at a drop; with two, the older one is lost, because the cursor already names the newer. ') +
        (onDrainExclusiveCorrect
          ? "A cursor that moves only when the application has processed a frame makes replay after the cursor (the spec's contract) exact, with or without dedup: that is the reference policy."
          : 'Even an on-drain cursor does not make replay after the cursor correct.'),
      tables: [{ header: ['replay', 'cursorAdvance', 'dedup', 'undrained frames at most', 'outcome'], rows }],
    });
  },
};

/** "Namespace event IDs by transport so cross-transport cursors are rejected outright." */
export const namespacing000: Claim = {
  id: '000-namespacing',
  seed: '000',
  claim:
    'Namespacing event IDs by transport (sse:e-104 vs http:e-104) makes the resume handler reject a cross-transport cursor; the client falls back to a full re-initialization, slow but correct.',
  test: test000,
  judge() {
    const rows: string[][] = [];
    const facts: Record<string, Record<string, boolean>> = {};
    for (const unknownCursor of ['reject', 'emptyStream'] as const) {
      const policy = withKnob(withKnob(seed000, 'eventIds', 'perTransport'), 'unknownCursor', unknownCursor);
      const { found } = probe(policy, claimBounds, { migrationAccepted: acceptsMigration, lossOnMigration: losesOnMigration, lossAnywhere: losesAnEvent });
      facts[unknownCursor] = found;
      rows.push([unknownCursor, yesNo(found.migrationAccepted!), yesNo(found.lossOnMigration!), yesNo(found.lossAnywhere!)]);
    }
    const rejects = facts.reject!;
    const correct = !rejects.migrationAccepted && !rejects.lossAnywhere;
    return judgementOf(this, {
      verdict: grade({ contradicted: rejects.migrationAccepted! || rejects.lossOnMigration!, boundaryMoved: !correct }),
      finding:
        `With per-transport IDs and unknown cursors rejected, no migration is accepted and none loses an event${rejects.lossAnywhere ? ', but the drain race over one transport remains: namespacing fixes the migration path, not the cursor that moves on receive' : ''}. ` +
        `If the server answers the unplaceable cursor with 200 and an empty stream instead, the migration is accepted quietly: that is seed 003. ` +
        `From 2025-11-25 the spec asks for more than a transport prefix: "${eventIdsEncodeStreamText}" (Resumability and Redelivery, a SHOULD). A transport namespace is one part of such an encoding: it keeps one listener's IDs from resolving at the other; naming the stream is what that SHOULD asks.`,
      tables: [{ header: ['unknown cursor answered', 'migration accepted', 'loss on a migration', 'loss on any resume'], rows }],
    });
  },
};

/** "Does not apply to deployments that hard-cut over to streamable HTTP." */
export const scope000: Claim = {
  id: '000-scope',
  seed: '000',
  claim: 'The failure does not apply to deployments that hard-cut over to streamable HTTP, with no dual-listener window.',
  test: test000,
  judge() {
    const policy = withKnob(seed000, 'bridging', false);
    const { result } = probe(policy, claimBounds, { streamableOnly: losesOnStreamableOnly });
    const match = result.matches.streamableOnly;
    const anyLoss = anyLossTable();
    return judgementOf(this, {
      verdict: grade({ contradicted: !!match, boundaryMoved: false }),
      finding:
        (match
          ? `A session that lives on streamable HTTP only, with no bridging, loses an event in ${match.path.length} steps with the same client (cursor on receive) and the spec's replay after the cursor. ${SDK_CLIENT_CURSOR} `
          : 'No session that lives on streamable HTTP only loses an event. ') + anyLoss.sentence,
      tables: [anyLoss.table],
      traces: match ? [{ title: 'A loss with no migration and no bridging', policy, bounds: claimBounds, path: match.path }] : [],
    });
  },
};

export const claims000: Claim[] = [incident000, conditions000, laterResumes000, retry000, cleanDrops000, decision000, namespacing000, scope000];
