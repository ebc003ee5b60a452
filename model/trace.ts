/**
 * Traces: a path of world steps replayed from the initial world and printed as numbered steps,
 * each with what the server, the wire and the client hold afterwards. Replaying (rather than
 * reading the explorer's stored states) prints the real event IDs of this very path.
 */
import type { Bounds } from './bounds.js';
import type { Policy } from './policy.js';
import { sessionContext } from './session-step.js';
import { replyReason } from './session-types.js';
import type { FrameRef, StepAnswer, TraceStepData } from './trace-step.js';
import { frameLabel, stepAction, stepAnswer } from './trace-text.js';
import { otherTransport } from './transport.js';
import type { ClientStream, World, WorldEvent, WorldMessage, WorldStep } from './world-types.js';
import { canStep } from './world-steps.js';
import { garbageCursor, initialWorld, step } from './world.js';

/** One replayed step: what was done and what the server answered (as data and as words), and the world after it. */
export interface TraceStep {
  index: number;
  step: WorldStep;
  /** The step as data, for diagrams and reports. */
  data: TraceStepData;
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
    const data = stepData(before, event, world, i + 1);
    steps.push({ index: i + 1, step: event, data, action: stepAction(data), answer: stepAnswer(data), world });
  });
  return steps;
}

/** A model frame as data. */
export function frameRef(event: WorldEvent): FrameRef {
  if (!event.message) return event.opening ? { id: event.id, opening: event.opening } : { id: event.id };
  return { id: event.id, call: event.message.call, seq: event.message.kind === 'result' ? 0 : event.message.seq };
}

function label(event: WorldEvent): string {
  return frameLabel(frameRef(event));
}

function clientStream(world: World, id: string): ClientStream | undefined {
  return world.client.streams.find((s) => s.id === id);
}

/** What a step does, as data (no answer yet): the model's own event IDs, its own cursors. */
export function stepAsData(world: World, event: WorldStep, index = 0): TraceStepData {
  const { client } = world;
  const base = { index, answer: {} };
  switch (event.type) {
    case 'INITIALIZE':
      return { ...base, kind: 'initialize', actor: 'client', transport: event.transport, ...(client.session >= 0 ? { reinitialize: true } : {}) };
    case 'CALL': {
      const call = {
        ...base,
        kind: 'call' as const,
        actor: 'client' as const,
        tool: event.unsolicited ? ('emit_unsolicited' as const) : ('emit' as const),
        call: `c${world.used.calls + 1}`,
      };
      if (event.migrate) return { ...call, transport: 'streamable', migrate: true, detail: "at /mcp with the legacy session's ID, no Last-Event-ID" };
      return { ...call, transport: client.transport };
    }
    case 'SEND':
      return { ...base, kind: 'send', actor: 'server', stream: event.stream };
    case 'RECEIVE':
      return { ...base, kind: 'receive', actor: 'client', stream: event.stream };
    case 'DRAIN':
      return { ...base, kind: 'drain', actor: 'application', stream: event.stream };
    case 'DROP': {
      const s = clientStream(world, event.stream);
      return { ...base, kind: 'drop', actor: 'connection', stream: event.stream, lost: s ? s.wire.length + s.inbox.length : 0 };
    }
    case 'RESUME': {
      const s = clientStream(world, event.stream);
      const transport = event.via === 'same' ? client.transport : otherTransport(client.transport);
      const value = event.cursor === 'own' ? (s?.cursor ?? null) : event.cursor === 'garbage' ? garbageCursor : client.staleCursor;
      const data: TraceStepData = { ...base, kind: 'resume', actor: 'client', stream: event.stream, transport, cursor: { value, origin: event.cursor } };
      if (event.via === 'other') data.migrate = true;
      return data;
    }
    case 'TIMEOUT': {
      const r = client.requests.find((x) => x.id === event.request);
      const retries = world.policy.client.retryOnTimeout && world.used.retries < world.bounds.retries;
      return { ...base, kind: 'timeout', actor: 'client', request: event.request, ...(r ? { call: r.call } : {}), ...(retries ? { retries } : {}) };
    }
    case 'DELETE':
      return { ...base, kind: 'delete', actor: 'client', transport: 'streamable' };
    case 'EXPIRE':
      return { ...base, kind: 'expire', actor: 'server' };
    case 'TRIM':
      return { ...base, kind: 'trim', actor: 'server' };
  }
}

/** A sentence for a step, in the protocol's words. */
export function describeStep(world: World, event: WorldStep): string {
  return stepAction(stepAsData(world, event));
}

/** The step and the model's answer to it, as data. */
function stepData(before: World, event: WorldStep, after: World, index: number): TraceStepData {
  return { ...stepAsData(before, event, index), answer: modelAnswer(before, event, after) };
}

/**
 * What the model answers a step. With `eventIds: false` a refusal's reason names none of the
 * model's event IDs (a candidate's answer is compared with it, and its IDs are not the model's).
 */
export function modelAnswer(before: World, event: WorldStep, after: World, { eventIds = true }: { eventIds?: boolean } = {}): StepAnswer {
  if (event.type === 'SEND') {
    const context = sessionContext<WorldMessage>(after.sessions[after.client.session]!);
    const sent = context.log[context.log.length - 1]!;
    return { frames: [frameRef(sent)], ...(context.reply.frames.length > 0 ? {} : { logOnly: true }) };
  }
  if (event.type === 'RESUME' && after.last) {
    const context = sessionContext<WorldMessage>(after.sessions[after.client.session]!);
    const { reply } = context;
    if (reply.status >= 400) {
      const reason = replyReason(reply, { eventIds });
      return { status: reply.status, ...(reason ? { reason } : {}) };
    }
    return reply.stream ? { status: 200, stream: 'replay', frames: reply.frames.map(frameRef) } : { status: 200, stream: 'quiet' };
  }
  if (event.type === 'DRAIN') {
    const s = clientStream(before, event.stream);
    const frame = s?.inbox[0];
    const processed = clientStream(after, event.stream)?.drained.length !== s?.drained.length;
    return frame ? { frames: [frameRef(frame)], ...(processed ? {} : { duplicate: true }) } : {};
  }
  if (event.type === 'RECEIVE') {
    const frame = clientStream(before, event.stream)?.wire[0];
    return frame ? { frames: [frameRef(frame)] } : {};
  }
  return after.last ? { status: after.last.status, ...(after.last.reason ? { reason: after.last.reason } : {}) } : {};
}

/** What the server holds: per session, its state, transport, capabilities and streams. */
function describeServer(world: World): string {
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
function describeWire(world: World): string {
  const parts = world.client.streams.filter((s) => s.wire.length > 0).map((s) => `${s.id}: ${s.wire.map(label).join(' ')}`);
  return parts.length > 0 ? parts.join('; ') : 'empty';
}

/** What the client holds: phase, transport, and per stream cursor, undrained and drained. */
function describeClient(world: World): string {
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
