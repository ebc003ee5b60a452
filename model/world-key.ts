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
import { memoization } from './memo.js';
import { sessionContext, type SessionSnapshot } from './session-step.js';
import type { SessionContext } from './session-types.js';
import type { World, WorldMessage } from './world-types.js';

type Context = SessionContext<WorldMessage>;

/** Per session snapshot, its key parts: a session state recurs under many client states. */
function memoized<T>(table: WeakMap<SessionSnapshot, T>, snapshot: SessionSnapshot, compute: (s: SessionSnapshot) => T): T {
  if (!memoization.sessionKeys) return compute(snapshot);
  let value = table.get(snapshot);
  if (value === undefined) {
    value = compute(snapshot);
    table.set(snapshot, value);
  }
  return value;
}

const positionTable = new WeakMap<SessionSnapshot, Map<string, string>>();
const heldTable = new WeakMap<SessionSnapshot, string>();
const leftTable = new WeakMap<SessionSnapshot, string>();

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
  for (const r of context.resumes) key += r.outcome[0]! + (r.crossTransport ? 'x' : '');
  return key;
}

function leftSessionKey(snapshot: SessionSnapshot): string {
  const c = sessionContext<WorldMessage>(snapshot);
  return `${String(snapshot.value)[0]}${resumesKey(c)}${c.servedUnderForeignCapabilities ? '!' : ''}${c.streams.some((s) => s.connected) ? '+' : ''}`;
}

function heldSessionKey(snapshot: SessionSnapshot): string {
  const c = sessionContext<WorldMessage>(snapshot);
  let key = `${String(snapshot.value)[0]}${c.transport}${c.capabilities === c.negotiated ? '' : '~'}${c.servedUnderForeignCapabilities ? '!' : ''}|${resumesKey(c)}|`;
  for (const s of c.streams) {
    key += `${s.id}${s.connected ? '+' : '-'}`;
    for (const e of c.log) if (e.stream === s.id && e.message) key += `${e.message.request}.${e.message.seq},`;
    key += '/';
    for (const m of s.queue) key += `${m.request}.${m.seq},`;
    key += ';';
  }
  return key;
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
  const { client, used } = world;
  let key = '';
  for (let i = 0; i < world.sessions.length; i++) {
    const session = world.sessions[i]!;
    key += (i === client.session ? memoized(heldTable, session, heldSessionKey) : memoized(leftTable, session, leftSessionKey)) + '§';
  }
  const held = world.sessions[client.session];
  const refs = held ? memoized(positionTable, held, (s) => positions(sessionContext<WorldMessage>(s))) : new Map<string, string>();
  const ref = (id: string) => refs.get(id) ?? '?';
  key += `${client.phase[0]}${client.transport[1]}${client.session}${client.staleCursor === null ? '' : 's'}|`;
  for (const s of client.streams) {
    key += `${s.id}@${ref(s.cursor)}${s.connected ? '+' : '-'}`;
    for (const f of s.wire) key += ref(f.id) + ',';
    key += '>';
    for (const f of s.inbox) key += ref(f.id) + ',';
    key += '>';
    for (const id of s.drained) key += ref(id) + ',';
    key += ';';
  }
  key += '|';
  for (const r of client.requests) key += `${r.id}${r.call}${r.stream}${r.session}${r.unsolicited ? 'u' : ''}${r.status[0]},`;
  key += '|';
  for (const call in world.executions) key += `${call}${world.executions[call]},`;
  key += `|${used.calls}${used.drops}${used.resumes}${used.reinitializes}${used.retries}${used.deletes}`;
  return key;
}
