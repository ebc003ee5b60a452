/**
 * The claims of seed 003 ("under what conditions must an instance reject MCP session
 * resumption across an SSE-to-streamable-HTTP transport migration"), judged by the model.
 */
import { defaultBounds } from '../bounds.js';
import { explore } from '../explore.js';
import { mutants, reference, seed003, withKnob, type Policy } from '../policy.js';
import type { World, WorldStep } from '../world-types.js';
import { grade, judgementOf, yesNo, type Claim } from './claim.js';
import { lattice, showValue, knobValue } from './lattice.js';
import { claimBounds, probe } from './probe.js';
import { acceptsMigration, answersQuietly, consequences, recoversFromRefusedMigration, seed003Signature, servesForeignCapabilities } from './signatures.js';

const test003 = 'test/model/claims-003.test.ts';

/** Two calls: one before the migration, one after it, served under whatever the session holds. */
export const bounds003 = { ...claimBounds, calls: 2, notifications: 1 };

export const incident003: Claim = {
  id: '003-incident',
  seed: '003',
  claim:
    'A client that migrates with its SSE session ID and an SSE Last-Event-ID passes the identity check; the streamable handler finds nothing at the cursor in its own log, answers 200 with an empty stream, and the session goes on serving requests under a capability profile the client never negotiated.',
  test: test003,
  judge() {
    const { result } = probe(seed003, bounds003, { signature: seed003Signature });
    const match = result.matches.signature;
    return judgementOf(this, {
      verdict: grade({ contradicted: !match, boundaryMoved: false }),
      finding: match
        ? `Reachable in ${match.path.length} steps: the migration is answered 200 with a quiet stream, and the next call is served under the default profile.`
        : 'The model finds no such world.',
      traces: match ? [{ title: 'The incident, shortest', policy: seed003, bounds: bounds003, path: match.path }] : [],
    });
  },
};

const conditionKnobs = ['bridging', 'eventIds', 'unknownCursor', 'capabilitiesOnMigration'] as const;

export const conditions003: Claim = {
  id: '003-conditions',
  seed: '003',
  claim:
    "Rejection is necessary exactly when a session established under one transport is resumed under the other, the store cannot prove the cursor belongs to the current transport's log, and the negotiated state has not been re-negotiated. Condition 3 is false when the server keeps per-transport cursor namespaces and can map or reject the cursor explicitly; then resumption may be safe.",
  test: test003,
  judge() {
    const rows: string[][] = [];
    let agrees = true;
    let idsOnlyReadingAgrees = true;
    for (const cell of lattice(seed003, conditionKnobs)) {
      const { found } = probe(cell.policy, bounds003, {
        accepted: acceptsMigration,
        quiet: answersQuietly,
        capabilities: servesForeignCapabilities,
      });
      // Condition 3 as the seed states it: false only when namespaces are per transport AND the handler maps or rejects the cursor.
      const condition3 = !(knobValue(cell, 'eventIds') === 'perTransport' && knobValue(cell, 'unknownCursor') === 'reject');
      // Condition 4 in the model: the session re-derives its state on migration instead of keeping the negotiated one.
      const predicted = knobValue(cell, 'bridging') === true && condition3 && knobValue(cell, 'capabilitiesOnMigration') === 'defaultProfile';
      const idsOnly =
        knobValue(cell, 'bridging') === true && knobValue(cell, 'eventIds') === 'shared' && knobValue(cell, 'capabilitiesOnMigration') === 'defaultProfile';
      agrees &&= found.capabilities === predicted;
      idsOnlyReadingAgrees &&= found.capabilities === idsOnly;
      rows.push([
        ...cell.values.map((v) => showValue(v.value)),
        yesNo(condition3),
        yesNo(predicted),
        yesNo(found.accepted!),
        yesNo(found.quiet!),
        yesNo(found.capabilities!),
      ]);
    }
    return judgementOf(this, {
      verdict: grade({ contradicted: !agrees, boundaryMoved: false }),
      finding: agrees
        ? `Read as the seed states it (condition 3 is false only when the namespace is per transport and the handler rejects or maps the cursor), the model agrees in all ${rows.length} cells: a request is served under foreign capabilities exactly when the session is bridged, condition 3 holds, and the capabilities are re-derived on migration. The seed's own server (per-transport logs, an empty stream for the unplaced cursor) is such a cell: separate logs did not help because it neither mapped nor rejected the cursor. ${idsOnlyReadingAgrees ? '' : 'An earlier reading of condition 3 as "event IDs shared" disagreed in the cells with per-transport IDs and a quiet 200; that was our encoding, not the seed. '}Condition 4 is encoded as the capabilities re-derived on migration; mapping the cursor (translation) is judged in 003-translation.`
        : 'Read as the seed states it, the model disagrees in some cells (see the table).',
      tables: [
        {
          header: [
            ...conditionKnobs,
            'condition 3 holds',
            'seed predicts corruption',
            'model: migration accepted',
            'model: quiet 200',
            'model: foreign capabilities served',
          ],
          rows,
        },
      ],
    });
  },
};

export const quiet003: Claim = {
  id: '003-quiet-stream',
  seed: '003',
  claim:
    'A 200 with an empty stream is indistinguishable from a legitimate quiet period, so the client proceeds on stale assumptions instead of re-initializing.',
  test: test003,
  judge() {
    const result = explore({ policy: seed003, bounds: bounds003 });
    const stall = result.violations.find((v) => v.property === 'no-silent-stall');
    return judgementOf(this, {
      verdict: grade({ contradicted: !stall, boundaryMoved: false }),
      finding: stall
        ? `The model reaches a request that waits forever on a stream the client believes live, in ${stall.path.length} steps: only a timeout ends it, and nothing tells the client to re-initialize.`
        : 'No request stalls.',
      traces: stall ? [{ title: 'A quiet 200 leaves a request waiting for ever', policy: seed003, bounds: bounds003, path: stall.path }] : [],
    });
  },
};

/** Bounds for the rule: the default world at the matrix's depth (docs/model.md), without DELETE and unsolicited calls. */
export const ruleBounds = { ...defaultBounds, notifications: 1, drops: 1, resumes: 1, unsolicited: 0, deletes: 0 };

/** Server policies with the rule broken in each way it can be, against the reference client. */
const ruleRows: Array<[string, Policy]> = [
  ['reference (the rule)', reference],
  ['bridging-shared-ids', mutants['bridging-shared-ids']!],
  ['bridging + translated cursors', withKnob(withKnob(reference, 'bridging', true), 'crossTransportCursor', 'translate')],
  ['unknown-cursor-empty-stream + bridging', withKnob(mutants['unknown-cursor-empty-stream']!, 'bridging', true)],
  ['default-capabilities', mutants['default-capabilities']!],
];

export const rule003: Claim = {
  id: '003-rule',
  seed: '003',
  claim:
    'The defensible boundary: a session ID issued under transport T is resumed only under T; presenting it under the other transport gets a 404-class answer, and the client re-initializes. This converts silent corruption into a visible, recoverable reconnect.',
  test: test003,
  judge() {
    const names = Object.keys(consequences) as Array<keyof typeof consequences>;
    const rows: string[][] = [];
    const harmful: Record<string, boolean> = {};
    let referenceStates = 0;
    let recovery: { path: WorldStep[]; world: World } | undefined;
    for (const [label, policy] of ruleRows) {
      const result = explore({ policy, bounds: ruleBounds, signatures: { ...consequences, recovers: recoversFromRefusedMigration } });
      const ruleBroken = result.violations.some((v) => v.property === 'no-cross-transport-resume');
      harmful[label] = names.some((n) => n in result.matches);
      if (policy === reference) {
        referenceStates = result.states;
        recovery = result.matches.recovers;
      }
      rows.push([label, String(result.states), yesNo(ruleBroken), ...names.map((n) => yesNo(n in result.matches))]);
    }
    const safeWithout = ruleRows.filter(([label, p]) => p !== reference && !harmful[label]).map(([label]) => label);
    const old = recovery ? recovery.world.sessions[0]! : undefined;
    return judgementOf(this, {
      // Judged by consequences alone: the rule's own invariant (no-cross-transport-resume) is not evidence for it.
      verdict: grade({ contradicted: harmful['reference (the rule)']! || !recovery, boundaryMoved: safeWithout.length > 0 }),
      finding:
        (harmful['reference (the rule)']
          ? 'Under the reference policy the model still finds a consequence (see the table). '
          : `Judged by consequences alone (loss, stall, duplicate effect, foreign capabilities), the reference policy, which follows the rule, has none in any of ${referenceStates} reachable states, and a refused migration is followed by a re-initialization over the transport the client tried to migrate to, whose next call is answered (${recovery?.path.length} steps). `) +
        (safeWithout.length > 0
          ? `The rule is sufficient, not necessary: ${safeWithout.join(' and ')} accept${safeWithout.length === 1 ? 's' : ''} migrations and break${safeWithout.length === 1 ? 's' : ''} only the rule's own invariant, because the cursor is placed or mapped in the session's one log, the negotiated capabilities are kept and the client's cursor moves on drain. It is needed where a migration would be answered quietly or re-derive capabilities. `
          : 'Every way of breaking the rule has a consequence: it is necessary. ') +
        (old ? `After the recovery the old session is still ${String(old.value)}: nothing retires it (see 003-retire).` : ''),
      tables: [{ header: ['server policy (reference client)', 'states', "breaks the rule's own invariant", ...names.map((n) => `model: ${n}`)], rows }],
      traces: recovery
        ? [{ title: 'Migration refused with 404, re-initialized over the new transport, answered', policy: reference, bounds: ruleBounds, path: recovery.path }]
        : [],
    });
  },
};

export const claims003: Claim[] = [incident003, conditions003, quiet003, rule003];
