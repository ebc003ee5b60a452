/**
 * Traces: a path of world steps replayed from the initial world and printed as numbered steps,
 * each with what the server, the wire and the client hold afterwards. Replaying (rather than
 * reading the explorer's stored states) prints the real event IDs of this very path.
 */
import type { Bounds } from './bounds.js';
import type { Policy } from './policy.js';
import { sessionContext } from './session-step.js';
import type { ClientStream, World, WorldEvent, WorldMessage, WorldStep } from './world-types.js';
import { canStep } from './world-steps.js';
import { garbageCursor, initialWorld, step } from './world.js';

/** One replayed step: what was done, what the server answered, and the world after it. */
export interface TraceStep {
  index: number;
  step: WorldStep;
  action: string;
  answer: string;
  world: World;
}

/**
 * Replays `path` from the initial world.
 * @throws Error naming the first step that is not enabled where it is taken.
 */
export function replay(policy: Policy, bounds: Bounds, path: readonly WorldStep[]): TraceStep[] {
  let world = initialWorld({ policy, bounds });
  const steps: TraceStep[] = [];
  path.forEach((event, i) => {
    if (!canStep(world, event)) throw new Error(`step ${i + 1} (${describeStep(world, event)}) is not enabled there`);
    const before = world;
    world = step(world, event);
    steps.push({ index: i + 1, step: event, action: describeStep(before, event), answer: describeAnswer(before, event, world), world });
  });
  return steps;
}

function label(event: WorldEvent): string {
  if (!event.message) return `${event.id}(${event.opening})`;
  const m = event.message;
  return m.kind === 'result' ? `${event.id}(result ${m.call})` : `${event.id}(${m.call}#${m.seq})`;
}

function clientStream(world: World, id: string): ClientStream | undefined {
  return world.client.streams.find((s) => s.id === id);
}

/** A sentence for a step, in the protocol's words. */
export function describeStep(world: World, event: WorldStep): string {
  const { client } = world;
  switch (event.type) {
    case 'INITIALIZE':
      return `client ${client.session >= 0 ? 're-initializes' : 'initializes'} over ${event.transport}`;
    case 'CALL':
      return `client calls ${event.unsolicited ? 'emit_unsolicited' : 'emit'} c${world.used.calls + 1} over ${client.transport}`;
    case 'SEND':
      return `server sends the next event on stream ${event.stream}`;
    case 'RECEIVE':
      return `client receives a frame on ${event.stream}`;
    case 'DRAIN':
      return `application drains a frame of ${event.stream}`;
    case 'DROP': {
      const s = clientStream(world, event.stream);
      const lost = s ? s.wire.length + s.inbox.length : 0;
      return `connection of ${event.stream} drops (${lost === 0 ? 'clean' : `unclean: ${lost} frame(s) in flight or undrained lost`})`;
    }
    case 'RESUME': {
      const s = clientStream(world, event.stream);
      const transport = event.via === 'same' ? client.transport : client.transport === 'sse' ? 'streamable' : 'sse';
      const cursor = event.cursor === 'own' ? s?.cursor : event.cursor === 'garbage' ? garbageCursor : client.staleCursor;
      return `client resumes ${event.stream} ${event.via === 'other' ? `by migrating to ${transport}` : `over ${transport}`} with Last-Event-ID ${cursor}${event.cursor === 'own' ? '' : ` (${event.cursor})`}`;
    }
    case 'TIMEOUT': {
      const r = client.requests.find((x) => x.id === event.request);
      return `request ${event.request} (${r?.call}) times out${world.policy.client.retryOnTimeout && world.used.retries < world.bounds.retries ? '; client retries it' : ''}`;
    }
    case 'DELETE':
      return 'client DELETEs the session';
  }
}

function describeAnswer(before: World, event: WorldStep, after: World): string {
  if (event.type === 'SEND') {
    const context = sessionContext<WorldMessage>(after.sessions[after.client.session]!);
    const sent = context.log[context.log.length - 1]!;
    return `${label(sent)}${context.reply.frames.length > 0 ? ' on the wire' : ' to the log only (no connection)'}`;
  }
  if (event.type === 'RESUME' && after.last) {
    const context = sessionContext<WorldMessage>(after.sessions[after.client.session]!);
    const { reply } = context;
    if (reply.status >= 400) return `${reply.status} ${reply.reason ?? ''}`.trim();
    return reply.stream ? `200, replays [${reply.frames.map(label).join(' ')}]` : '200, a quiet stream';
  }
  if (event.type === 'DRAIN') {
    const s = clientStream(before, event.stream);
    const frame = s?.inbox[0];
    const processed = clientStream(after, event.stream)?.drained.length !== s?.drained.length;
    return frame ? `${label(frame)}${processed ? '' : ' discarded (duplicate)'}` : '';
  }
  if (event.type === 'RECEIVE') {
    const frame = clientStream(before, event.stream)?.wire[0];
    return frame ? label(frame) : '';
  }
  return after.last ? `${after.last.status}${after.last.reason ? ` ${after.last.reason}` : ''}` : '';
}

/** What the server holds: per session, its state, transport, capabilities and streams. */
export function describeServer(world: World): string {
  return world.sessions
    .map((snapshot) => {
      const c = sessionContext<WorldMessage>(snapshot);
      const streams = c.streams
        .map((s) => {
          const sent = c.log.filter((e) => e.stream === s.id && e.message).map(label);
          return `${s.id}${s.connected ? '' : '(no connection)'} sent [${sent.join(' ')}] queued ${s.queue.length}`;
        })
        .join('; ');
      const caps = c.capabilities === c.negotiated ? 'negotiated' : `${JSON.stringify(c.capabilities)} (not negotiated)`;
      return `${c.sessionId} ${String(snapshot.value)} via ${c.transport} caps ${caps}: ${streams || 'no streams'}`;
    })
    .join(' | ');
}

/** What is in flight on the client's connections. */
export function describeWire(world: World): string {
  const parts = world.client.streams.filter((s) => s.wire.length > 0).map((s) => `${s.id}: ${s.wire.map(label).join(' ')}`);
  return parts.length > 0 ? parts.join('; ') : 'empty';
}

/** What the client holds: phase, transport, and per stream cursor, undrained and drained. */
export function describeClient(world: World): string {
  const { client } = world;
  if (client.phase !== 'ready') return `${client.phase}`;
  const streams = client.streams.map((s) => {
    const context = sessionContext<WorldMessage>(world.sessions[client.session]!);
    const drained = s.drained.map((id) => {
      const e = context.log.find((x) => x.id === id);
      return e ? label(e) : id;
    });
    return `${s.id}${s.connected ? '' : '(dropped)'} cursor ${s.cursor} undrained [${s.inbox.map(label).join(' ')}] drained [${drained.join(' ')}]`;
  });
  const requests = client.requests.map((r) => `${r.id}(${r.call}) ${r.status}`).join(', ');
  return `via ${client.transport}: ${streams.join('; ')}${requests ? ` | requests ${requests}` : ''}`;
}

/** The numbered trace, as printed by `explore` and embedded in docs. */
export function formatTrace(steps: readonly TraceStep[]): string {
  const lines: string[] = [];
  for (const s of steps) {
    lines.push(`${String(s.index).padStart(2)}. ${s.action}${s.answer ? ` -> ${s.answer}` : ''}`);
    lines.push(`    server: ${describeServer(s.world)}`);
    lines.push(`    wire:   ${describeWire(s.world)}`);
    lines.push(`    client: ${describeClient(s.world)}`);
  }
  return lines.join('\n');
}
