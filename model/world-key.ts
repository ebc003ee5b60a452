/**
 * A compact key for a world: two worlds share it exactly when they are the same state of the
 * specification up to the names of event IDs.
 *
 * Event IDs are numbered in global send order, so two interleavings of independent streams name
 * the same events differently. Nothing in the specification depends on that order: replay,
 * ordering and loss are judged per stream, and cursors are matched by equality. So the key names
 * an event by its stream and its position in that stream, and interleavings that differ only in
 * numbering are one state. (The explorer replays the steps to print real IDs.)
 * Sessions the client has left change no more; the key keeps of them only what invariants read.
 */
import { hashPart, StringSink, type FingerprintSink, type HashedPart, type KeySink } from './explore-fingerprint.js';
import { memoization } from './memo.js';
import { replayGap } from './replay-gap.js';
import { sessionContext, type SessionSnapshot } from './session-step.js';
import type { SessionContext } from './session-types.js';
import type { ClientRequest, ClientStream, World, WorldEvent, WorldMessage } from './world-types.js';

type Context = SessionContext<WorldMessage>;

function resumesKey(context: Context): string {
  let key = '';
  // A replay that skipped an event (`replay-has-no-gap`) is a different state from one that did not.
  for (const r of context.resumes) key += r.outcome[0]! + (r.crossTransport ? 'x' : '') + (replayGap(context, r) ? 'g' : '');
  return key;
}

function leftSessionPart(snapshot: SessionSnapshot): string {
  const c = sessionContext<WorldMessage>(snapshot);
  return `${String(snapshot.value)[0]}${resumesKey(c)}${c.servedUnderForeignCapabilities ? '!' : ''}${c.streams.some((s) => s.connected) ? '+' : ''}§`;
}

function heldSessionPart(snapshot: SessionSnapshot): string {
  const c = sessionContext<WorldMessage>(snapshot);
  let key = `${String(snapshot.value)[0]}${c.transport}${c.capabilities === c.negotiated ? '' : '~'}${c.servedUnderForeignCapabilities ? '!' : ''}|${resumesKey(c)}|`;
  // Log retention: which events the store has dropped (by their stream positions, as events are named here).
  if (c.retainedFrom > 0) key += `r${c.log.slice(0, c.retainedFrom).map((e) => e.stream).join('')}|`;
  for (const s of c.streams) {
    key += `${s.id}${s.connected ? '+' : '-'}`;
    for (const e of c.log) if (e.stream === s.id && e.message) key += `${e.message.request}.${e.message.seq},`;
    key += '/';
    for (const m of s.queue) key += `${m.request}.${m.seq},`;
    key += ';';
  }
  return `${key}§`;
}

/**
 * The parts of a world's key with the objects they were computed from, by position. A world's
 * successors share most of its objects (a step touches one stream; client-side steps keep the
 * session snapshot), so a successor's fingerprint hashes only the parts whose objects changed.
 */
export interface KeyParts {
  readonly held: number;
  readonly sessions: readonly SessionSnapshot[];
  readonly sessionParts: readonly HashedPart[];
  readonly streams: readonly ClientStream[];
  readonly streamParts: readonly HashedPart[];
  readonly requests: readonly ClientRequest[];
  readonly requestsPart: HashedPart;
  readonly executions: World['executions'];
  readonly executionsPart: HashedPart;
}

// Off by default: every session snapshot's part kept while the snapshot lives (the bench measures it).
const sessionPartMemo = new WeakMap<SessionSnapshot, HashedPart>();

function sessionPart(snapshot: SessionSnapshot, held: boolean): HashedPart {
  if (!memoization.sessionKeys || !held) return hashPart(held ? heldSessionPart(snapshot) : leftSessionPart(snapshot));
  let part = sessionPartMemo.get(snapshot);
  if (part === undefined) sessionPartMemo.set(snapshot, (part = hashPart(heldSessionPart(snapshot))));
  return part;
}

/**
 * Mixes a world's key into `sink` part by part, as `writeWorldKey` writes it, reusing `parent`'s
 * hashed parts for the objects the world shares with it. Returns the world's parts, for its own successors.
 */
export function fingerprintWorld(world: World, sink: FingerprintSink, parent?: KeyParts): KeyParts {
  const { client, used, sessions } = world;
  const held = client.session;
  const reuseSessions = parent !== undefined && parent.held === held;
  const sessionParts: HashedPart[] = new Array(sessions.length);
  for (let i = 0; i < sessions.length; i++) {
    const session = sessions[i]!;
    const part = reuseSessions && parent.sessions[i] === session ? parent.sessionParts[i]! : sessionPart(session, i === held);
    sessionParts[i] = part;
    sink.addHashed(part);
  }
  sink.add(headerPart(world));
  const { streams } = client;
  // Client streams belong to the held session: the same object names its events the same way while that session is held.
  const reuseStreams = reuseSessions ? parent.streams : undefined;
  const log = held >= 0 ? sessionContext<WorldMessage>(sessions[held]!).log : noLog;
  const streamParts: HashedPart[] = new Array(streams.length);
  for (let i = 0; i < streams.length; i++) {
    const stream = streams[i]!;
    const part = reuseStreams !== undefined && reuseStreams[i] === stream ? parent!.streamParts[i]! : hashPart(streamPart(stream, log));
    streamParts[i] = part;
    sink.addHashed(part);
  }
  sink.add('|');
  const requestsPart = parent !== undefined && parent.requests === client.requests ? parent.requestsPart : hashPart(requestsKey(client.requests));
  sink.addHashed(requestsPart);
  const executionsPart =
    parent !== undefined && parent.executions === world.executions ? parent.executionsPart : hashPart(executionsKey(world.executions));
  sink.addHashed(executionsPart);
  sink.add(usedPart(used));
  return { held, sessions, sessionParts, streams, streamParts, requests: client.requests, requestsPart, executions: world.executions, executionsPart };
}

const cache = new WeakMap<World, string>();

/** The key of a world's state (memoized: the graph traversal asks for it several times per edge). */
export function worldKey(world: World): string {
  const cached = cache.get(world);
  if (cached !== undefined) return cached;
  const key = computeWorldKey(world);
  cache.set(world, key);
  return key;
}

/** The key of a world's state, computed afresh (for a search that asks once per world). */
export function computeWorldKey(world: World): string {
  const sink = new StringSink();
  writeWorldKey(world, sink);
  return sink.key;
}

/**
 * An event by its stream and its position there (`r1#2`), as the held session's log names it;
 * `?` for an event the log does not hold. The log only grows, so an event's name never changes
 * while the session is held: a client stream's part depends on the stream alone.
 */
function eventName(log: readonly WorldEvent[], id: string): string {
  let at = -1;
  for (let i = 0; i < log.length; i++) {
    if (log[i]!.id === id) {
      at = i;
      break;
    }
  }
  if (at < 0) return '?';
  const { stream } = log[at]!;
  let position = 0;
  for (let i = 0; i < at; i++) if (log[i]!.stream === stream) position++;
  return `${stream}#${position}`;
}

function streamPart(stream: ClientStream, log: readonly WorldEvent[]): string {
  let key = `${stream.id}@${eventName(log, stream.cursor)}${stream.connected ? '+' : '-'}`;
  for (const f of stream.wire) key += `${eventName(log, f.id)},`;
  key += '>';
  for (const f of stream.inbox) key += `${eventName(log, f.id)},`;
  key += '>';
  for (const id of stream.drained) key += `${eventName(log, id)},`;
  return `${key};`;
}

function requestsKey(requests: ClientRequest[]): string {
  let key = '';
  for (const r of requests) key += `${r.id}${r.call}${r.stream}${r.session}${r.unsolicited ? 'u' : ''}${r.status[0]},`;
  return `${key}|`;
}

function executionsKey(executions: World['executions']): string {
  let key = '';
  for (const call in executions) key += `${call}${executions[call]},`;
  return `${key}|`;
}

const noLog: readonly WorldEvent[] = [];

function headerPart(world: World): string {
  const { client } = world;
  return `${client.phase[0]}${client.transport[1]}${client.session}${client.staleCursor === null ? '' : 's'}|`;
}

function usedPart(used: World['used']): string {
  return `${used.calls}${used.drops}${used.resumes}${used.reinitializes}${used.retries}${used.deletes}`;
}

/**
 * Writes a world's key, part by part, to `sink`. Every part ends in a delimiter no part holds
 * inside, so the same string means the same parts. (`fingerprintWorld` mixes the same parts.)
 */
export function writeWorldKey(world: World, sink: KeySink): void {
  const { client, sessions } = world;
  for (let i = 0; i < sessions.length; i++) sink.add(i === client.session ? heldSessionPart(sessions[i]!) : leftSessionPart(sessions[i]!));
  sink.add(headerPart(world));
  const log = client.session >= 0 ? sessionContext<WorldMessage>(sessions[client.session]!).log : noLog;
  for (const s of client.streams) sink.add(streamPart(s, log));
  sink.add('|');
  sink.add(requestsKey(client.requests));
  sink.add(executionsKey(world.executions));
  sink.add(usedPart(world.used));
}
