/**
 * Deterministic scenarios for what the model's step vocabulary does not ask: a sample of session
 * IDs, requests after DELETE, resuming a lost `ping` response (works without fixtures), and the
 * capabilities a migrated session serves under.
 */
import type { PropertyId } from '../../model/property-ids.js';
import type { TraceStepData } from '../../model/trace-step.js';
import { stepAction } from '../../model/trace-text.js';
import { clientCapabilities } from '../../model/world.js';
import { CheckClient, HistoryRecorder, type Answer, type SseStream } from '../wire/index.js';
import type { ScenarioContext } from './scenario.js';
import type { ScenarioRecord } from './verdicts.js';

/** A probe's step before it is numbered; its answer is filled in as it comes. */
type ProbeStep = Omit<TraceStepData, 'index' | 'answer'>;

/** Records a step (numbered, in the history too); returns it so the probe can note the answer. */
type Note = (step: ProbeStep) => TraceStepData;

interface Probe {
  name: string;
  /** The properties this probe gives evidence for. */
  for: PropertyId[];
  applies(context: ScenarioContext): boolean;
  run(client: CheckClient, context: ScenarioContext, note: Note): Promise<void>;
}

/** The HTTP status of an answer, as a step's answer. */
function answered(step: TraceStepData, a: Answer): void {
  step.answer = a.kind === 'error' ? { error: `${a.reason}: ${a.detail}` } : { status: a.status };
}

/** Names a stream in the history as the probe's trace does, so that verdicts on it say which. */
function named(client: CheckClient, stream: SseStream, name: string): void {
  client.recorder.nameStream(stream.conn, name);
}

/** Receives and drains until a frame with an ID arrives (a priming event or a message); bounded. */
async function firstIdentified(stream: SseStream, timeoutMs: number): Promise<boolean> {
  for (let i = 0; i < 8; i++) {
    const r = await stream.receive(timeoutMs);
    if (r.kind !== 'frame') return false;
    stream.drainAll();
    if (r.frame.id) return true;
  }
  return false;
}

export const probes: Probe[] = [
  {
    name: 'session-ids',
    for: ['session-ids-visible-ascii', 'session-ids-unguessable'],
    applies: () => true,
    async run(client, context, note) {
      for (const transport of context.abilities.transports) {
        for (let i = 0; i < 4; i++) {
          const step = note({ kind: 'initialize', actor: 'client', transport, detail: `session ${i + 1}` });
          const init = await client.initialize({ transport });
          if (init.ok && init.sessionId !== undefined) step.answer = { sessionId: init.sessionId };
          if (transport === 'streamable') await client.deleteSession();
        }
      }
    },
  },
  {
    name: 'delete-then-use',
    for: ['terminated-session-404'],
    applies: (c) => c.abilities.transports.includes('streamable'),
    async run(client, context, note) {
      note({ kind: 'initialize', actor: 'client', transport: 'streamable' });
      const init = await client.initialize({ transport: 'streamable' });
      if (!init.ok) return;
      note({ kind: 'ping', actor: 'client', transport: 'streamable' });
      const ping = await client.ping();
      if (ping.stream) await firstIdentified(ping.stream, context.timeoutMs);
      const cursor = ping.stream?.cursor;
      await ping.response();
      answered(note({ kind: 'delete', actor: 'client', transport: 'streamable' }), await client.deleteSession());
      const again = note({ kind: 'ping', actor: 'client', transport: 'streamable', session: 'deleted' });
      answered(again, (await client.ping()).answer);
      const lastEventId = cursor ?? 'none';
      const step = note({ kind: 'resume', actor: 'client', transport: 'streamable', session: 'deleted', cursor: { value: lastEventId, origin: 'own' } });
      const resumed = await client.resume({ endpoint: 'mcp', lastEventId, sessionId: init.sessionId ?? null });
      answered(step, resumed);
      if (resumed.kind === 'stream') resumed.stream.drop();
    },
  },
  {
    name: 'ping-resume',
    for: ['no-silent-loss', 'no-silent-stall', 'order-preserved'],
    applies: (c) => c.abilities.transports.includes('streamable'),
    async run(client, context, note) {
      note({ kind: 'initialize', actor: 'client', transport: 'streamable' });
      if (!(await client.initialize({ transport: 'streamable' })).ok) return;
      note({ kind: 'ping', actor: 'client', transport: 'streamable' });
      const ping = await client.ping();
      note({ kind: 'receive', actor: 'client', stream: 'the ping stream', detail: 'up to the first frame with an event ID' });
      if (!ping.stream) return;
      named(client, ping.stream, 'the ping stream');
      if (!(await firstIdentified(ping.stream, context.timeoutMs))) return;
      const cursor = ping.stream.cursor;
      note({ kind: 'drop', actor: 'connection', stream: 'the ping stream' });
      ping.stream.drop();
      const step = note({
        kind: 'resume',
        actor: 'client',
        stream: 'the ping stream',
        transport: 'streamable',
        cursor: { value: cursor ?? null, origin: 'own' },
      });
      const resumed = await client.resume({ endpoint: 'mcp', lastEventId: cursor ?? null });
      answered(step, resumed);
      if (resumed.kind === 'stream') await client.awaitResponseOn(resumed.stream, ping.id, {}, 'ping');
    },
  },
  {
    name: 'cross-session-cursor',
    for: ['no-cross-session-replay', 'unknown-cursor-rejected'],
    applies: (c) => c.abilities.transports.includes('streamable'),
    async run(client, context, note) {
      note({ kind: 'initialize', actor: 'client', transport: 'streamable', detail: 'session A' });
      const a = await client.initialize({ transport: 'streamable' });
      if (!a.ok) return;
      const emit = context.abilities.fixtures.emit;
      note(
        emit
          ? { kind: 'call', actor: 'client', tool: 'emit', notifications: 2, transport: 'streamable', detail: 'in session A' }
          : { kind: 'ping', actor: 'client', transport: 'streamable', detail: 'in session A' },
      );
      const call = emit ? await client.callTool('emit', { label: `${context.runTag}-a`, count: 2 }) : await client.ping();
      // A's cursor: its first event, so that a leaking server has A's later events to replay.
      if (!call.stream || !(await firstIdentified(call.stream, context.timeoutMs))) return;
      const cursor = call.stream.cursor;
      await call.response();
      if (cursor === undefined) return;
      note({ kind: 'initialize', actor: 'client', transport: 'streamable', detail: 'session B' });
      const b = await client.initialize({ transport: 'streamable' });
      if (!b.ok) return;
      const step = note({
        kind: 'resume',
        actor: 'client',
        transport: 'streamable',
        cursor: { value: cursor, origin: 'stale' },
        detail: "session B's ID with session A's cursor",
      });
      const resumed = await client.resume({ endpoint: 'mcp', lastEventId: cursor, sessionId: b.sessionId ?? null });
      answered(step, resumed);
      if (resumed.kind === 'stream') {
        for (let i = 0; i < 4; i++) if ((await resumed.stream.receive(Math.min(200, context.timeoutMs))).kind !== 'frame') break;
        resumed.stream.drop();
      }
    },
  },
  {
    name: 'long-replay',
    for: ['no-silent-loss', 'order-preserved'],
    applies: (c) => c.abilities.transports.includes('streamable') && c.abilities.fixtures.emit,
    async run(client, context, note) {
      note({ kind: 'initialize', actor: 'client', transport: 'streamable' });
      if (!(await client.initialize({ transport: 'streamable' })).ok) return;
      note({ kind: 'call', actor: 'client', tool: 'emit', notifications: 20, transport: 'streamable' });
      const call = await client.callTool('emit', { label: `${context.runTag}-long`, count: 20 });
      note({ kind: 'receive', actor: 'client', stream: 'the call stream', detail: 'up to the first frame with an event ID' });
      if (!call.stream) return;
      named(client, call.stream, 'the call stream');
      if (!(await firstIdentified(call.stream, context.timeoutMs))) return;
      note({ kind: 'drop', actor: 'connection', stream: 'the call stream' });
      call.stream.drop();
      const step = note({
        kind: 'resume',
        actor: 'client',
        stream: 'the call stream',
        transport: 'streamable',
        cursor: { value: call.stream.cursor ?? null, origin: 'own' },
        detail: 'reading the whole replay',
      });
      const resumed = await client.resume({ from: call.stream, endpoint: 'mcp' });
      answered(step, resumed);
      if (resumed.kind !== 'stream') return;
      // A long replay shows what a short one hides: events of one millisecond put in the wrong order.
      for (let i = 0; i < 24; i++) {
        const r = await resumed.stream.receive(context.timeoutMs);
        if (r.kind !== 'frame') break;
        resumed.stream.drainAll();
        if (r.frame.message?.id === call.id) break;
      }
    },
  },
  {
    name: 'two-streams',
    for: ['no-cross-stream-replay', 'no-silent-loss', 'order-preserved'],
    applies: (c) => c.abilities.transports.includes('streamable') && c.abilities.fixtures.emit,
    async run(client, context, note) {
      note({ kind: 'initialize', actor: 'client', transport: 'streamable' });
      if (!(await client.initialize({ transport: 'streamable' })).ok) return;
      note({ kind: 'call', actor: 'client', tool: 'emit', call: 'A', notifications: 2, transport: 'streamable' });
      const a = await client.callTool('emit', { label: `${context.runTag}-two-a`, count: 2 });
      note({ kind: 'receive', actor: 'client', stream: "A's stream", detail: 'up to the first frame with an event ID' });
      if (!a.stream) return;
      named(client, a.stream, "A's stream");
      if (!(await firstIdentified(a.stream, context.timeoutMs))) return;
      note({ kind: 'drop', actor: 'connection', stream: "A's stream" });
      a.stream.drop();
      note({ kind: 'call', actor: 'client', tool: 'emit', call: 'B', notifications: 2, transport: 'streamable', detail: 'draining it whole' });
      await (await client.callTool('emit', { label: `${context.runTag}-two-b`, count: 2 })).response();
      const step = note({
        kind: 'resume',
        actor: 'client',
        stream: "A's stream",
        transport: 'streamable',
        cursor: { value: a.stream.cursor ?? null, origin: 'own' },
      });
      const resumed = await client.resume({ from: a.stream, endpoint: 'mcp' });
      answered(step, resumed);
      if (resumed.kind !== 'stream') return;
      // Read the whole replay, not just up to A's response: a foreign event may come after it.
      for (let i = 0; i < 16; i++) {
        const r = await resumed.stream.receive(context.timeoutMs);
        if (r.kind !== 'frame') break;
        resumed.stream.drainAll();
      }
    },
  },
  {
    name: 'migration-capabilities',
    for: ['capabilities-honoured', 'no-cross-transport-resume'],
    applies: (c) => c.abilities.transports.length === 2 && c.abilities.fixtures.sessionInfo,
    async run(client, _context, note) {
      note({ kind: 'initialize', actor: 'client', transport: 'sse' });
      const init = await client.initialize({ transport: 'sse', capabilities: { ...clientCapabilities } });
      if (!init.ok) return;
      note({ kind: 'call', actor: 'client', tool: 'session_info', transport: 'sse' });
      await (await client.callTool('session_info', {})).response();
      const legacy = client.session.legacyStream;
      if (!legacy) return;
      named(client, legacy, 'the legacy stream');
      const cursor = legacy.cursor;
      note({ kind: 'drop', actor: 'connection', stream: 'the legacy stream' });
      legacy.drop();
      const step = note({
        kind: 'resume',
        actor: 'client',
        stream: 'the legacy stream',
        migrate: true,
        transport: 'streamable',
        cursor: { value: cursor ?? null, origin: 'own' },
      });
      const resumed = await client.resume({ endpoint: 'mcp', lastEventId: cursor ?? null, sessionId: init.sessionId ?? client.session.sessionId ?? null });
      answered(step, resumed);
      if (resumed.kind !== 'stream' || resumed.status >= 300) return;
      note({ kind: 'call', actor: 'client', tool: 'session_info', transport: 'streamable', detail: 'in the migrated session' });
      const info = await client.callTool('session_info', {}, { transport: 'streamable' });
      await info.response();
    },
  },
];

/** Runs one probe in a fresh client; deterministic path `probe:NAME`. */
export async function runProbe(probe: Probe, context: ScenarioContext): Promise<ScenarioRecord> {
  const recorder = new HistoryRecorder();
  const client = new CheckClient({
    baseUrl: context.target.url,
    paths: context.target.paths ?? {},
    headers: context.target.headers ?? {},
    timeoutMs: context.timeoutMs,
    cursorAdvance: context.client.cursorAdvance === 'onDrain' ? 'drain' : 'receive',
    dedup: context.client.dedup,
    recorder,
    capabilities: { ...clientCapabilities },
  });
  const steps: TraceStepData[] = [];
  const note: Note = (step) => {
    const data: TraceStepData = { ...step, index: steps.length + 1, answer: {} };
    steps.push(data);
    client.step(stepAction(data));
    return data;
  };
  try {
    await probe.run(client, context, note);
  } finally {
    client.close();
  }
  return { history: recorder.history, steps, seed: -1, path: `probe:${probe.name}` };
}
