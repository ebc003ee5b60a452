/**
 * The claims of seed 003 ("under what conditions must an instance reject MCP session
 * resumption across an SSE-to-streamable-HTTP transport migration"), judged by the model.
 */
import { defaultBounds } from '../bounds.js';
import { explore } from '../explore.js';
import { reference, seed003 } from '../policy.js';
import { judgementOf, yesNo, type Claim } from './claim.js';
import { lattice, showValue, valueOf } from './lattice.js';
import { claimBounds, probe } from './probe.js';
import { acceptsMigration, answersQuietly, recoversFromRefusedMigration, seed003Signature, servesForeignCapabilities } from './signatures.js';

const test003 = 'test/model/claims-003.test.ts';

/** Two calls: one before the migration, one after it, served under whatever the session holds. */
const bounds003 = { ...claimBounds, calls: 2, notifications: 1 };


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
      verdict: match ? 'confirmed' : 'refuted',
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
    'Rejection is necessary exactly when a session established under one transport is resumed under the other, the store cannot prove the cursor belongs to the current transport\'s log (no transport-tagged namespace), and the negotiated state has not been re-negotiated. With per-transport namespaces, resumption may be safe.',
  test: test003,
  judge() {
    const rows: string[][] = [];
    let agrees = true;
    let perTransportStillFails = false;
    for (const cell of lattice(seed003, conditionKnobs)) {
      const { found } = probe(cell.policy, bounds003, {
        accepted: acceptsMigration,
        quiet: answersQuietly,
        capabilities: servesForeignCapabilities,
      });
      // The seed: the corruption needs a migration (bridging), no tagged namespace, and state not re-negotiated.
      const predicted =
        valueOf(cell, 'bridging') === true &&
        valueOf(cell, 'eventIds') === 'shared' &&
        valueOf(cell, 'capabilitiesOnMigration') === 'defaultProfile';
      agrees &&= found.capabilities === predicted;
      if (valueOf(cell, 'eventIds') === 'perTransport' && found.capabilities) perTransportStillFails = true;
      rows.push([
        ...cell.values.map((v) => showValue(v.value)),
        yesNo(predicted),
        yesNo(found.accepted!),
        yesNo(found.quiet!),
        yesNo(found.capabilities!),
      ]);
    }
    return judgementOf(this, {
      verdict: agrees ? 'confirmed' : 'refined',
      finding: agrees
        ? 'The model agrees in every cell.'
        : `A request is served under foreign capabilities exactly when the session is bridged, re-derives capabilities on migration, and either shares one ID namespace (the cursor resolves) or answers an unplaceable cursor with 200. ${perTransportStillFails ? 'So a transport-tagged namespace is not enough: the incident\'s own server kept separate logs and still failed, because it answered the unknown cursor quietly. ' : ''}What makes resumption safe is refusing the cursor with 404 (or not bridging at all).`,
      tables: [
        {
          header: [...conditionKnobs, 'seed predicts corruption', 'model: migration accepted', 'model: quiet 200', 'model: foreign capabilities served'],
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
      verdict: stall ? 'confirmed' : 'refuted',
      finding: stall
        ? `The model reaches a request that waits forever on a stream the client believes live, in ${stall.path.length} steps: only a timeout ends it, and nothing tells the client to re-initialize.`
        : 'No request stalls.',
      traces: stall ? [{ title: 'A quiet 200 leaves a request waiting for ever', policy: seed003, bounds: bounds003, path: stall.path }] : [],
    });
  },
};

export const rule003: Claim = {
  id: '003-rule',
  seed: '003',
  claim:
    'The defensible boundary: a session ID issued under transport T is resumed only under T; presenting it under the other transport gets a 404-class answer, and the client re-initializes. This converts silent corruption into a visible, recoverable reconnect.',
  test: test003,
  judge() {
    const bounds = { ...defaultBounds, unsolicited: 0, deletes: 0 };
    const result = explore({ policy: reference, bounds, signatures: { recovers: recoversFromRefusedMigration } });
    const violated = result.violations.map((v) => v.property);
    const recovery = result.matches.recovers;
    return judgementOf(this, {
      verdict: violated.length === 0 && recovery ? 'confirmed' : 'refuted',
      finding:
        violated.length === 0
          ? `Under the reference policy no invariant is violated in any of ${result.states} reachable states, and a refused migration is followed by a re-initialization whose next call is answered (${recovery?.path.length} steps).`
          : `Under the reference policy the model still finds: ${violated.join(', ')}.`,
      traces: recovery ? [{ title: 'Migration refused with 404, re-initialized, answered', policy: reference, bounds, path: recovery.path }] : [],
    });
  },
};

export const claims003: Claim[] = [incident003, conditions003, quiet003, rule003];
