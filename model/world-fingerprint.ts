/**
 * Fingerprints of worlds for the explorer, mixed part by part from the parts `writeWorldKey`
 * writes. A world's successors share most of its objects (a step touches one stream; client-side
 * steps keep the session state), so a successor is fingerprinted against its parent's parts:
 * only the parts whose objects changed are written and hashed again.
 */
import { FingerprintSink, hashPart, type PartHash } from './explore-fingerprint.js';
import { memoization } from './memo.js';
import { sessionContext, type SessionState } from './session-step.js';
import { executionsPart, headerPart, heldSessionPart, leftSessionPart, noLog, requestsPart, streamPart, usedPart } from './world-key.js';
import type { ClientRequest, ClientStream, World, WorldMessage } from './world-types.js';

/** A world's key parts by position, with the objects they were hashed from. */
export interface KeyParts {
  readonly world: World;
  readonly sessionParts: readonly PartHash[];
  readonly streamParts: readonly PartHash[];
  readonly requestsPart: PartHash;
  readonly executionsPart: PartHash;
  readonly usedPart: PartHash;
}

const closing = hashPart('|');

// Per session state (`memoization.sessionKeys`): a session state recurs under many client states,
// and most steps give the held session a new state that other paths reach too.
// A held session's part also depends on the bound on trims: one table per bound.
const heldParts = new Map<number, WeakMap<SessionState, PartHash>>();
const leftParts = new WeakMap<SessionState, PartHash>();

function heldTable(trims: number): WeakMap<SessionState, PartHash> {
  let parts = heldParts.get(trims);
  if (parts === undefined) heldParts.set(trims, (parts = new WeakMap()));
  return parts;
}

/** A session's key part, as `write` writes it, hashed once per session state in `parts`. */
function sessionPart(
  parts: WeakMap<SessionState, PartHash>,
  session: SessionState,
  trims: number,
  write: (session: SessionState, trims: number) => string,
): PartHash {
  if (!memoization.sessionKeys) return hashPart(write(session, trims));
  let part = parts.get(session);
  if (part === undefined) parts.set(session, (part = hashPart(write(session, trims))));
  return part;
}

// The header and the bounds used take few values: each value's part is hashed once, found by a number.
const headers = new Map<number, PartHash>();
const phases = { idle: 0, ready: 1, mustReinitialize: 2 } as const;

function header(world: World): PartHash {
  const { client } = world;
  const code = (((client.session + 1) * 3 + phases[client.phase]) * 2 + (client.transport === 'sse' ? 1 : 0)) * 2 + (client.staleCursor === null ? 0 : 1);
  let part = headers.get(code);
  if (part === undefined) headers.set(code, (part = hashPart(headerPart(world))));
  return part;
}

const useds = new Map<number, PartHash>();

function used(world: World): PartHash {
  const u = world.used;
  // Counts past 15 (bounds no exploration reaches) are hashed afresh.
  if ((u.calls | u.drops | u.resumes | u.reinitializes | u.retries | u.deletes) > 15) return hashPart(usedPart(u));
  const code = ((((u.calls * 16 + u.drops) * 16 + u.resumes) * 16 + u.reinitializes) * 16 + u.retries) * 16 + u.deletes;
  let part = useds.get(code);
  if (part === undefined) useds.set(code, (part = hashPart(usedPart(u))));
  return part;
}

/**
 * Fingerprints worlds, reusing a parent's parts. The parts of the world last fingerprinted stay
 * in scratch arrays, copied out (`keep`) only for a world the explorer has not seen.
 */
export class WorldFingerprinter {
  /** The fingerprint's halves after `fingerprint`. */
  readonly sink = new FingerprintSink();
  private world: World | undefined;
  // Scratch: the parts of the world last fingerprinted (the first `sessions` and `streams` entries).
  private readonly sessionParts: PartHash[] = [];
  private sessions = 0;
  private readonly streamParts: PartHash[] = [];
  private streams = 0;
  private requests = closing;
  private executions = closing;
  private used = closing;

  /** Fingerprints `world` into `sink`, reusing what it shares with `parent` (the parts of the world it was reached from). */
  fingerprint(world: World, parent?: KeyParts): void {
    const sink = this.sink.reset();
    this.world = world;
    const { client, sessions } = world;
    const held = client.session;
    const from = parent?.world;
    // Client streams belong to the held session: while it is held, the same stream object names its events the same way.
    const sameHeld = from !== undefined && from.client.session === held;
    this.sessions = sessions.length;
    for (let i = 0; i < sessions.length; i++) {
      const session = sessions[i]!;
      const { trims } = world.bounds;
      const part =
        sameHeld && from.sessions[i] === session
          ? parent!.sessionParts[i]!
          : i === held
            ? sessionPart(heldTable(trims), session, trims, heldSessionPart)
            : sessionPart(leftParts, session, trims, leftSessionPart);
      this.sessionParts[i] = part;
      sink.addHashed(part);
    }
    sink.addHashed(header(world));
    const { streams } = client;
    const log = held >= 0 ? sessionContext<WorldMessage>(sessions[held]!).log : noLog;
    const fromStreams: readonly ClientStream[] | undefined = sameHeld ? from.client.streams : undefined;
    this.streams = streams.length;
    for (let i = 0; i < streams.length; i++) {
      const stream = streams[i]!;
      const part = fromStreams !== undefined && fromStreams[i] === stream ? parent!.streamParts[i]! : hashPart(streamPart(stream, log));
      this.streamParts[i] = part;
      sink.addHashed(part);
    }
    sink.addHashed(closing);
    const requests: ClientRequest[] = client.requests;
    this.requests = from !== undefined && from.client.requests === requests ? parent!.requestsPart : hashPart(requestsPart(requests));
    sink.addHashed(this.requests);
    this.executions = from !== undefined && from.executions === world.executions ? parent!.executionsPart : hashPart(executionsPart(world.executions));
    sink.addHashed(this.executions);
    this.used = from !== undefined && from.used === world.used ? parent!.usedPart : used(world);
    sink.addHashed(this.used);
  }

  /** The parts of the world last fingerprinted, for its successors to reuse. */
  keep(): KeyParts {
    return {
      world: this.world!,
      sessionParts: this.sessionParts.slice(0, this.sessions),
      streamParts: this.streamParts.slice(0, this.streams),
      requestsPart: this.requests,
      executionsPart: this.executions,
      usedPart: this.used,
    };
  }
}
