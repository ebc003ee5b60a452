/**
 * Deterministic scenarios for what the model's step vocabulary does not ask: a sample of session
 * IDs, requests after DELETE, resuming a lost `ping` response (works without fixtures), and the
 * capabilities a migrated session serves under.
 */
import type { PropertyId } from '../../model/property-ids.js';
import { clientCapabilities } from '../../model/world.js';
import { CheckClient, HistoryRecorder, type SseStream } from '../client/index.js';
import type { ScenarioContext } from './scenario.js';
import type { ScenarioRecord } from './verdicts.js';

interface Probe {
  name: string;
  /** The properties this probe gives evidence for. */
  for: PropertyId[];
  applies(context: ScenarioContext): boolean;
  run(client: CheckClient, context: ScenarioContext, note: (step: string) => void): Promise<void>;
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
    for: ['session-ids-secure'],
    applies: () => true,
    async run(client, context, note) {
      for (const transport of context.abilities.transports) {
        for (let i = 0; i < 4; i++) {
          note(`initialize session ${i + 1} over ${transport}`);
          await client.initialize({ transport });
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
      note('initialize over streamable');
      const init = await client.initialize({ transport: 'streamable' });
      if (!init.ok) return;
      note('ping');
      const ping = await client.ping();
      const cursor = ping.stream ? (await firstIdentified(ping.stream, context.timeoutMs), ping.stream.cursor) : undefined;
      await ping.response();
      note('DELETE the session');
      await client.deleteSession();
      note('ping with the deleted session ID');
      await (await client.ping()).response();
      note('resume with the deleted session ID');
      const resumed = await client.resume({ endpoint: 'mcp', lastEventId: cursor ?? 'none', sessionId: init.sessionId ?? null });
      if (resumed.kind === 'stream') resumed.stream.drop();
    },
  },
  {
    name: 'ping-resume',
    for: ['no-silent-loss', 'no-silent-stall', 'order-preserved'],
    applies: (c) => c.abilities.transports.includes('streamable'),
    async run(client, context, note) {
      note('initialize over streamable');
      if (!(await client.initialize({ transport: 'streamable' })).ok) return;
      note('ping, keep only the first identified frame, drop');
      const ping = await client.ping();
      if (!ping.stream || !(await firstIdentified(ping.stream, context.timeoutMs))) return;
      const cursor = ping.stream.cursor;
      ping.stream.drop();
      note(`resume with Last-Event-ID ${cursor}`);
      const resumed = await client.resume({ endpoint: 'mcp', lastEventId: cursor ?? null });
      if (resumed.kind === 'stream') await client.awaitResponseOn(resumed.stream, ping.id, {}, 'ping');
    },
  },
  {
    name: 'cross-session-cursor',
    for: ['no-cross-session-replay', 'unknown-cursor-rejected'],
    applies: (c) => c.abilities.transports.includes('streamable'),
    async run(client, context, note) {
      note('initialize session A over streamable');
      const a = await client.initialize({ transport: 'streamable' });
      if (!a.ok) return;
      note(context.abilities.fixtures.emit ? 'session A calls emit with 2 notifications; receive all' : 'session A pings');
      const call = context.abilities.fixtures.emit ? await client.callTool('emit', { label: `${context.runTag}-a`, count: 2 }) : await client.ping();
      // A's cursor: its first event, so that a leaking server has A's later events to replay.
      if (!call.stream || !(await firstIdentified(call.stream, context.timeoutMs))) return;
      const cursor = call.stream.cursor;
      await call.response();
      if (cursor === undefined) return;
      note('initialize session B over streamable');
      const b = await client.initialize({ transport: 'streamable' });
      if (!b.ok) return;
      note(`resume with session B's ID and session A's Last-Event-ID ${cursor}`);
      const resumed = await client.resume({ endpoint: 'mcp', lastEventId: cursor, sessionId: b.sessionId ?? null });
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
      note('initialize over streamable');
      if (!(await client.initialize({ transport: 'streamable' })).ok) return;
      note('call emit with 20 notifications; take the first identified frame; drop');
      const call = await client.callTool('emit', { label: `${context.runTag}-long`, count: 20 });
      if (!call.stream || !(await firstIdentified(call.stream, context.timeoutMs))) return;
      call.stream.drop();
      note(`resume with Last-Event-ID ${call.stream.cursor} and read the whole replay`);
      const resumed = await client.resume({ from: call.stream, endpoint: 'mcp' });
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
      note('initialize over streamable');
      if (!(await client.initialize({ transport: 'streamable' })).ok) return;
      note('call emit A (2 notifications); take the first identified frame; drop its stream');
      const a = await client.callTool('emit', { label: `${context.runTag}-two-a`, count: 2 });
      if (!a.stream || !(await firstIdentified(a.stream, context.timeoutMs))) return;
      a.stream.drop();
      note('call emit B (2 notifications) and drain it whole');
      await (await client.callTool('emit', { label: `${context.runTag}-two-b`, count: 2 })).response();
      note(`resume A's stream with Last-Event-ID ${a.stream.cursor}`);
      const resumed = await client.resume({ from: a.stream, endpoint: 'mcp' });
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
    async run(client, context, note) {
      note('initialize over sse');
      const init = await client.initialize({ transport: 'sse', capabilities: { ...clientCapabilities } });
      if (!init.ok) return;
      note('session_info over sse');
      await (await client.callTool('session_info', {})).response();
      const legacy = client.session.legacyStream;
      if (!legacy) return;
      const cursor = legacy.cursor;
      note('drop the legacy stream');
      legacy.drop();
      note(`migrate: resume at /mcp with the legacy session and Last-Event-ID ${cursor}`);
      const resumed = await client.resume({ endpoint: 'mcp', lastEventId: cursor ?? null, sessionId: init.sessionId ?? client.session.sessionId ?? null });
      if (resumed.kind !== 'stream' || resumed.status >= 300) return;
      note('session_info over streamable in the migrated session');
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
    timeoutMs: context.timeoutMs,
    cursorAdvance: context.client.cursorAdvance === 'onDrain' ? 'drain' : 'receive',
    dedup: context.client.dedup,
    recorder,
    capabilities: { ...clientCapabilities },
  });
  const steps: string[] = [];
  const note = (step: string) => {
    steps.push(`${steps.length + 1}. ${step}`);
    client.step(step);
  };
  try {
    await probe.run(client, context, note);
  } finally {
    client.close();
  }
  return { history: recorder.history, steps, oracle: [], seed: -1, path: `probe:${probe.name}` };
}
