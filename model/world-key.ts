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
import { StringSink, type KeySink } from './explore-fingerprint.js';
import { memoization } from './memo.js';
import { replayGap } from './replay-gap.js';
import { sessionContext, type SessionSnapshot } from './session-step.js';
import type { SessionContext } from './session-types.js';
import type { World, WorldMessage } from './world-types.js';

type Context = SessionContext<WorldMessage>;

/**
 * Key parts per session snapshot. Off (the default), a table remembers only the last two
 * snapshots it computed for: a world's successors mostly keep its session snapshot (client-side
 * steps do not touch it), so two entries hit often and hold next to nothing. On
 * (`memoization.sessionKeys`), it remembers every snapshot alive: a session state recurs under
 * many client states.
 */
class PartTable<T> {
  private readonly all = new WeakMap<SessionSnapshot, T>();
  // The two snapshots last asked for: a world being expanded and the successor a server step gave it.
  private lastSnapshot: SessionSnapshot | undefined;
  private lastValue: T | undefined;
  private otherSnapshot: SessionSnapshot | undefined;
  private otherValue: T | undefined;
  constructor(private readonly compute: (s: SessionSnapshot) => T) {}
  get(snapshot: SessionSnapshot): T {
    if (!memoization.sessionKeys) {
      if (this.lastSnapshot === snapshot) return this.lastValue as T;
      const value = this.otherSnapshot === snapshot ? (this.otherValue as T) : this.compute(snapshot);
      this.otherSnapshot = this.lastSnapshot;
      this.otherValue = this.lastValue;
      this.lastSnapshot = snapshot;
      this.lastValue = value;
      return value;
    }
    let value = this.all.get(snapshot);
    if (value === undefined) {
      value = this.compute(snapshot);
      this.all.set(snapshot, value);
    }
    return value;
  }
}

function positions(context: Context): Map<string, string> {
  const counts = new Map<string, number>();
  const refs = new Map<string, string>();
  for (const event of context.log) {
    const n = counts.get(event.stream) ?? 0;
    counts.set(event.stream, n + 1);
    refs.set(event.id, `${event.stream}#${n}`);
  }
  return refs;
}

function resumesKey(context: Context): string {
  let key = '';
  // A replay that skipped an event (`replay-has-no-gap`) is a different state from one that did not.
  for (const r of context.resumes) key += r.outcome[0]! + (r.crossTransport ? 'x' : '') + (replayGap(context, r) ? 'g' : '');
  return key;
}

function leftSessionKey(snapshot: SessionSnapshot): string {
  const c = sessionContext<WorldMessage>(snapshot);
  return `${String(snapshot.value)[0]}${resumesKey(c)}${c.servedUnderForeignCapabilities ? '!' : ''}${c.streams.some((s) => s.connected) ? '+' : ''}`;
}

function heldSessionKey(snapshot: SessionSnapshot): string {
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
  return key;
}

const positionTable = new PartTable((s) => positions(sessionContext<WorldMessage>(s)));
const heldTable = new PartTable(heldSessionKey);
const leftTable = new PartTable(leftSessionKey);

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

const noRefs = new Map<string, string>();

/** Writes a world's key, part by part, to `sink` (a string, or a fingerprint that needs none). */
export function writeWorldKey(world: World, sink: KeySink): void {
  const { client, used } = world;
  for (let i = 0; i < world.sessions.length; i++) {
    const session = world.sessions[i]!;
    sink.add(i === client.session ? heldTable.get(session) : leftTable.get(session));
    sink.add('§');
  }
  const held = world.sessions[client.session];
  const refs = held ? positionTable.get(held) : noRefs;
  const ref = (id: string) => refs.get(id) ?? '?';
  sink.add(`${client.phase[0]}${client.transport[1]}${client.session}${client.staleCursor === null ? '' : 's'}|`);
  for (const s of client.streams) {
    sink.add(`${s.id}@${ref(s.cursor)}${s.connected ? '+' : '-'}`);
    for (const f of s.wire) {
      sink.add(ref(f.id));
      sink.add(',');
    }
    sink.add('>');
    for (const f of s.inbox) {
      sink.add(ref(f.id));
      sink.add(',');
    }
    sink.add('>');
    for (const id of s.drained) {
      sink.add(ref(id));
      sink.add(',');
    }
    sink.add(';');
  }
  sink.add('|');
  for (const r of client.requests) sink.add(`${r.id}${r.call}${r.stream}${r.session}${r.unsolicited ? 'u' : ''}${r.status[0]},`);
  sink.add('|');
  for (const call in world.executions) sink.add(`${call}${world.executions[call]},`);
  sink.add(`|${used.calls}${used.drops}${used.resumes}${used.reinitializes}${used.retries}${used.deletes}`);
}
