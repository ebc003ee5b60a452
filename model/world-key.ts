/**
 * A compact key for a world: two worlds share it exactly when they are the same state of the
 * specification up to the names of event IDs.
 *
 * Event IDs are numbered in global send order, so two interleavings of independent streams name
 * the same events differently. Almost nothing in the specification depends on that order: replay,
 * ordering and loss are judged per stream, and cursors are matched by equality. So the key names
 * an event by its stream and its position in that stream, and interleavings that differ only in
 * numbering are one state. (The explorer replays the steps to print real IDs.) The exception is
 * bounded log retention, which drops the oldest event across streams: there the key keeps the
 * streams of the events that can still be dropped, in send order.
 * Sessions the client has left change no more; the key keeps of them only what invariants read.
 */
import { StringSink, type KeySink } from './explore-fingerprint.js';
import { replayGap } from './replay-gap.js';
import { sessionContext, type SessionState } from './session-step.js';
import type { SessionContext } from './session-types.js';
import type { ClientRequest, ClientStream, World, WorldEvent, WorldMessage } from './world-types.js';

type Context = SessionContext<WorldMessage>;

function resumesKey(context: Context): string {
  let key = '';
  // A replay that skipped an event (`replay-has-no-gap`) is a different state from one that did not.
  for (const r of context.resumes) key += r.outcome[0]! + (r.crossTransport ? 'x' : '') + (replayGap(context, r) ? 'g' : '');
  return key;
}

/** The key part of a session the client has left. */
export function leftSessionPart(session: SessionState): string {
  const c = sessionContext<WorldMessage>(session);
  return `${String(session.value)[0]}${resumesKey(c)}${c.servedUnderForeignCapabilities ? '!' : ''}${c.streams.some((s) => s.connected) ? '+' : ''}§`;
}

/**
 * The key part of the session the client holds. `trims`: how many events log retention may drop
 * in all (the world's bound).
 */
export function heldSessionPart(session: SessionState, trims: number): string {
  const c = sessionContext<WorldMessage>(session);
  let key = `${String(session.value)[0]}${c.transport}${c.capabilities === c.negotiated ? '' : '~'}${c.servedUnderForeignCapabilities ? '!' : ''}|${resumesKey(c)}|`;
  // Log retention drops the oldest event across streams: which events it has dropped, and which
  // it may drop next, depend on the order they were sent in (by stream, as events are named here).
  if (c.policy.logRetention !== 'unbounded')
    key += `r${c.retainedFrom}.${c.log
      .slice(0, Math.min(trims, c.log.length))
      .map((e) => e.stream)
      .join('')}|`;
  for (const s of c.streams) {
    key += `${s.id}${s.connected ? '+' : '-'}`;
    for (const e of c.log) if (e.stream === s.id && e.message) key += `${e.message.request}.${e.message.seq},`;
    key += '/';
    for (const m of s.queue) key += `${m.request}.${m.seq},`;
    key += ';';
  }
  return `${key}§`;
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

/** The key part of a client stream, its events named as the held session's `log` names them. */
export function streamPart(stream: ClientStream, log: readonly WorldEvent[]): string {
  let key = `${stream.id}@${eventName(log, stream.cursor)}${stream.connected ? '+' : '-'}`;
  for (const f of stream.wire) key += `${eventName(log, f.id)},`;
  key += '>';
  for (const f of stream.inbox) key += `${eventName(log, f.id)},`;
  key += '>';
  for (const id of stream.drained) key += `${eventName(log, id)},`;
  return `${key};`;
}

/** The key part of the client's requests. */
export function requestsPart(requests: ClientRequest[]): string {
  let key = '';
  for (const r of requests) key += `${r.id}${r.call}${r.stream}${r.session}${r.unsolicited ? 'u' : ''}${r.status[0]},`;
  return `${key}|`;
}

/** The key part of the tools' side effects. */
export function executionsPart(executions: World['executions']): string {
  let key = '';
  for (const call in executions) key += `${call}${executions[call]},`;
  return `${key}|`;
}

/** The log of a world without a held session. */
export const noLog: readonly WorldEvent[] = [];

/** The key part of the client's phase, transport, held session and stale cursor. */
export function headerPart(world: World): string {
  const { client } = world;
  return `${client.phase[0]}${client.transport[1]}${client.session}${client.staleCursor === null ? '' : 's'}|`;
}

/** The key part of the bounds used (counts separated: a count may pass 9 at deep bounds). */
export function usedPart(used: World['used']): string {
  return `${used.calls}.${used.drops}.${used.resumes}.${used.reinitializes}.${used.retries}.${used.deletes}`;
}

/**
 * Writes a world's key, part by part, to `sink`. Each part but the last ends in its delimiter
 * (`§`, `|`, `;`), so the same string means the same parts. (`WorldFingerprinter` mixes the same
 * parts.) Inside the request part, labels and indexes are written back to back, which is
 * unambiguous while they stay under 10, as at the model's bounds.
 */
export function writeWorldKey(world: World, sink: KeySink): void {
  const { client, sessions } = world;
  for (let i = 0; i < sessions.length; i++) sink.add(i === client.session ? heldSessionPart(sessions[i]!, world.bounds.trims) : leftSessionPart(sessions[i]!));
  sink.add(headerPart(world));
  const log = client.session >= 0 ? sessionContext<WorldMessage>(sessions[client.session]!).log : noLog;
  for (const s of client.streams) sink.add(streamPart(s, log));
  sink.add('|');
  sink.add(requestsPart(client.requests));
  sink.add(executionsPart(world.executions));
  sink.add(usedPart(world.used));
}
