/**
 * The catalog's `breaks` against the property judges (`properties/judges/`): for each code mutant,
 * one deterministic scenario with the reference client (cursor on drain, dedup, retry once after a
 * timeout) is run against the reference server, where every judge passes or skips, and against the
 * mutant, where exactly the expected properties fail, all of them in the mutant's `breaks`.
 */
import { expect, test } from 'vitest';
import { clientCapabilities } from '../../model/world.js';
import type { PropertyId } from '../../model/property-ids.js';
import { HistoryView } from '../../properties/history-view.js';
import { judges } from '../../properties/judges/index.js';
import { CheckClient, HistoryRecorder, type SseStream } from '../../src/wire/index.js';
import * as catalog from '../../src/check-server/mutants/index.js';
import type { Mutation, ReferenceServer } from '../../src/reference/index.js';
import { QUIET_MS, brief, serve, until, useCleanup } from './helpers.js';

useCleanup();

/** Bound of every wait of the reference client in these scenarios (a stall costs one of these). */
const WAIT_MS = 1000;

class Run {
  readonly recorder = new HistoryRecorder();
  private readonly clients: CheckClient[] = [];
  constructor(readonly server: ReferenceServer) {}

  /** A reference client with an initialized session. */
  async session(transport: 'streamable' | 'sse' = 'streamable'): Promise<CheckClient> {
    const c = new CheckClient({
      baseUrl: this.server.url,
      recorder: this.recorder,
      timeoutMs: WAIT_MS,
      cursorAdvance: 'drain',
      dedup: true,
      capabilities: { ...clientCapabilities },
    });
    this.clients.push(c);
    const init = await c.initialize({ transport });
    expect(init.ok, init.ok ? '' : init.reason).toBe(true);
    return c;
  }

  /** `emit {label, count}` on a POST stream, received and drained up to notification `upTo`, then dropped. */
  async dropAfter(c: CheckClient, label: string, count: number, upTo: number) {
    const call = await c.callTool('emit', { label, count });
    const s = (call.answer as { stream: SseStream }).stream;
    for (;;) {
      const r = await s.receive();
      if (r.kind !== 'frame') throw new Error(`stream of ${label}: ${r.kind}`);
      s.drainAll();
      if (brief(r.frame.message) === `${label}${upTo}`) break;
    }
    s.drop();
    return { call, stream: s };
  }

  /**
   * Waits on `stream` for the response to `call`, then reads the rest (to its end, or for a short
   * while if it stays open). After a timeout the client retries the call once, as the reference
   * client does, and waits for the retry's response on the same stream (or its own).
   */
  async settle(c: CheckClient, stream: SseStream, call: { id: number | string; tool: string; args: Record<string, unknown> }) {
    const outcome = await c.awaitResponseOn(stream, call.id);
    if (outcome.kind === 'timeout') {
      const retry = await c.callTool(call.tool, call.args);
      await (retry.stream && retry.stream !== stream ? retry.response() : c.awaitResponseOn(stream, retry.id));
    }
    for (;;) {
      const r = await stream.receive(QUIET_MS);
      if (r.kind !== 'frame') return;
      stream.drainAll();
    }
  }

  /** The properties the judges find broken in the history so far. */
  broken(): PropertyId[] {
    const view = new HistoryView(this.recorder.history);
    return (Object.keys(judges) as PropertyId[]).filter((id) => judges[id](view).status === 'fail').sort();
  }

  close(): void {
    for (const c of this.clients) c.close();
  }
}

/** A legacy session whose stream went down after `x` was answered; `emit {label, count}` is posted meanwhile and the stream resumed. */
async function legacyMissed(run: Run, label: string, count: number): Promise<void> {
  const c = await run.session('sse');
  const legacy = c.session.legacyStream!;
  expect((await (await c.callTool('emit', { label: 'x', count: 1 })).response()).kind).toBe('response');
  legacy.drop();
  const held = run.server.sessions.get(c.session.sessionId!)!;
  await until(() => held.context.streams[0]?.connected === false, 'the server to see the drop');
  const args = { label, count };
  const call = await c.callTool('emit', args);
  const resumed = await c.resume({ from: legacy });
  if (resumed.kind === 'stream') await run.settle(c, resumed.stream, { id: call.id, tool: 'emit', args });
}

/** A POST stream dropped after notification 1 and resumed (with `cursor`, default its own). */
async function postResumed(run: Run, c: CheckClient, label: string, count: number, cursor?: string): Promise<void> {
  const { call, stream } = await run.dropAfter(c, label, count, 1);
  const resumed = await c.resume(cursor === undefined ? { from: stream } : { from: stream, lastEventId: cursor });
  if (resumed.kind === 'stream') await run.settle(c, resumed.stream, { id: call.id, tool: 'emit', args: { label, count } });
}

/** Receives and drains what `stream` carries until it is quiet (or ends). */
async function readUntilQuiet(stream: SseStream): Promise<void> {
  for (;;) {
    const r = await stream.receive(QUIET_MS);
    if (r.kind !== 'frame') return;
    stream.drainAll();
  }
}

/** The standalone stream opened, then `emit_unsolicited {label, count}` answered and the stream read until quiet. */
async function standaloneCalled(run: Run, label: string, count: number): Promise<{ c: CheckClient; standalone: SseStream }> {
  const c = await run.session();
  const standalone = ((await c.openStandalone()) as { stream: SseStream }).stream;
  expect((await (await c.callTool('emit_unsolicited', { label, count })).response()).kind).toBe('response');
  await readUntilQuiet(standalone);
  return { c, standalone };
}

interface Case {
  name: string;
  mutation: () => Mutation;
  scenario: (run: Run) => Promise<void>;
  /** What the judges find broken on the mutant in this scenario. */
  judged: PropertyId[];
}

/** Same-ms tiebreaks by event (priming and other events first, each unique): x2, x1, x4, x3, then the result. */
function frozenSameMs(): Mutation {
  const order: Record<string, string> = { x1: 'c', x2: 'b', x3: 'e', x4: 'd', 'result x': 'f', y1: 'k', 'result y': 'm', 'result b': '1' };
  let n = 0;
  return catalog.sameMsRandomOrder({
    now: () => 1_700_000_000_000,
    tiebreak: (e) => `${(e.opening ? undefined : order[brief(e.message) ?? '']) ?? '0'}${String(n++).padStart(4, '0')}`,
  });
}

const cases: Case[] = [
  {
    name: 'replay-skips-first',
    mutation: catalog.replaySkipsFirst,
    scenario: async (run) => {
      await postResumed(run, await run.session(), 'a', 3);
      await legacyMissed(run, 'b', 0);
    },
    judged: ['replay-has-no-gap', 'no-silent-loss', 'no-silent-stall', 'at-most-once-effect'],
  },
  {
    name: 'same-ms-random-order',
    mutation: frozenSameMs,
    scenario: async (run) => {
      await postResumed(run, await run.session(), 'x', 4);
      // On the legacy stream: y (answered, the cursor), then b while down, whose result sorts before y's.
      const c = await run.session('sse');
      const legacy = c.session.legacyStream!;
      expect((await (await c.callTool('emit', { label: 'y', count: 1 })).response()).kind).toBe('response');
      legacy.drop();
      const held = run.server.sessions.get(c.session.sessionId!)!;
      await until(() => held.context.streams[0]?.connected === false, 'the server to see the drop');
      const call = await c.callTool('emit', { label: 'b', count: 0 });
      const resumed = await c.resume({ from: legacy });
      if (resumed.kind === 'stream') await run.settle(c, resumed.stream, { id: call.id, tool: 'emit', args: { label: 'b', count: 0 } });
    },
    judged: ['replay-has-no-gap', 'no-silent-loss', 'order-preserved', 'no-silent-stall', 'at-most-once-effect'],
  },
  {
    name: 'ids-reused-across-streams',
    mutation: catalog.idsReusedAcrossStreams,
    scenario: async (run) => {
      const c = await run.session();
      expect((await (await c.callTool('emit', { label: 'a', count: 2 })).response()).kind).toBe('response');
      // b's events reuse a's IDs; the client deduplicates per stream, so it takes them and presents
      // b's reused cursor, which the mutant resolves to a's stream: a's events are replayed, b's never come.
      await postResumed(run, c, 'b', 2);
    },
    judged: ['event-ids-unique', 'no-cross-stream-replay', 'no-silent-loss'],
  },
  {
    name: 'replay-other-streams',
    mutation: catalog.replayOtherStreams,
    scenario: async (run) => {
      const c = await run.session();
      const { call, stream } = await run.dropAfter(c, 'a', 2, 1);
      expect((await (await c.callTool('emit', { label: 'b', count: 1 })).response()).kind).toBe('response');
      const resumed = await c.resume({ from: stream });
      if (resumed.kind === 'stream') await run.settle(c, resumed.stream, { id: call.id, tool: 'emit', args: { label: 'a', count: 2 } });
    },
    judged: ['no-cross-stream-replay'],
  },
  {
    name: 'shared-event-store',
    mutation: catalog.sharedEventStore,
    scenario: async (run) => {
      const a = await run.session();
      const { stream } = await run.dropAfter(a, 'a', 2, 1);
      const b = await run.session();
      const resumed = await b.resume({ lastEventId: stream.cursor!, sessionId: b.session.sessionId! });
      if (resumed.kind === 'stream') while ((await resumed.stream.receive(QUIET_MS)).kind === 'frame') resumed.stream.drainAll();
    },
    judged: ['no-cross-session-replay', 'unknown-cursor-rejected'],
  },
  {
    name: 'unknown-cursor-200',
    mutation: catalog.unknownCursor200,
    // A cursor the server minted in an earlier session, carried over as a real client might: a
    // made-up cursor (garbage-0) would count against unknown-cursor-rejected only.
    scenario: async (run) => {
      const { stream } = await run.dropAfter(await run.session(), 'old', 2, 1);
      await postResumed(run, await run.session(), 'a', 2, stream.cursor);
    },
    judged: ['unknown-cursor-rejected', 'no-silent-loss', 'no-silent-stall', 'at-most-once-effect'],
  },
  {
    name: 'predictable-session-ids',
    mutation: catalog.predictableSessionIds,
    scenario: async (run) => {
      for (const transport of ['streamable', 'sse', 'streamable', 'streamable'] as const) await run.session(transport);
    },
    judged: ['session-ids-unguessable'],
  },
  {
    name: 'delete-keeps-session',
    mutation: catalog.deleteKeepsSession,
    scenario: async (run) => {
      const c = await run.session();
      await c.deleteSession();
      await (await c.ping()).response();
    },
    judged: ['terminated-session-404'],
  },
  {
    name: 'legacy-session-at-mcp',
    mutation: catalog.legacySessionAtMcp,
    scenario: async (run) => {
      const c = await run.session('sse');
      expect((await (await c.callTool('emit', { label: 'l', count: 1 })).response()).kind).toBe('response');
      const resumed = await c.resume({ from: c.session.legacyStream!, endpoint: 'mcp' });
      if (resumed.kind === 'stream') while ((await resumed.stream.receive(QUIET_MS)).kind === 'frame') resumed.stream.drainAll();
    },
    judged: ['no-cross-transport-resume'],
  },
  {
    name: 'capabilities-reset-on-resume',
    mutation: catalog.capabilitiesResetOnResume,
    scenario: async (run) => {
      const c = await run.session();
      const answer = await c.openStandalone();
      const standalone = (answer as { stream: SseStream }).stream;
      await standalone.receive();
      standalone.drainAll();
      standalone.drop();
      expect((await c.resume({ from: standalone })).kind).toBe('stream');
      await (await c.callTool('session_info')).response();
    },
    judged: ['capabilities-honoured'],
  },
  {
    name: 'rerun-on-resume',
    mutation: catalog.rerunOnResume,
    // b is answered while the legacy stream is down: the replay carries a re-run's result instead.
    scenario: (run) => legacyMissed(run, 'b', 1),
    judged: ['at-most-once-effect'],
  },
  {
    name: 'retention-partial-replay',
    mutation: catalog.retentionPartialReplay,
    // By the resume the log keeps only a4 and the result: the cursor (a1) is older, and the replay skips a2, a3.
    scenario: async (run) => postResumed(run, await run.session(), 'a', 4),
    judged: ['replay-has-no-gap', 'no-silent-loss'],
  },
  {
    name: 'resumed-standalone-silent',
    mutation: catalog.resumedStandaloneSilent,
    // u's notification is the cursor (no priming event on the mutant's GET stream); v is called after the resume.
    scenario: async (run) => {
      const { c, standalone } = await standaloneCalled(run, 'u', 1);
      standalone.drop();
      const resumed = await c.resume({ from: standalone });
      expect(resumed.kind).toBe('stream');
      expect((await (await c.callTool('emit_unsolicited', { label: 'v', count: 1 })).response()).kind).toBe('response');
      await readUntilQuiet((resumed as { stream: SseStream }).stream);
    },
    judged: ['no-silent-loss'],
  },
  {
    name: 'standalone-live-lost',
    mutation: catalog.standaloneLiveLost,
    // The stream stays connected: u's notifications are logged, never written.
    scenario: async (run) => void (await standaloneCalled(run, 'u', 2)),
    judged: ['standalone-delivers'],
  },
  {
    name: 'streamable-session-counter',
    mutation: catalog.streamableSessionCounter,
    // Four of each transport, interleaved: pooled, the legacy UUIDs hid the counter.
    scenario: async (run) => {
      for (const transport of ['streamable', 'sse', 'sse', 'streamable', 'sse', 'streamable', 'sse', 'streamable'] as const) await run.session(transport);
    },
    judged: ['session-ids-unguessable'],
  },
  {
    name: 'session-ids-with-space',
    mutation: catalog.sessionIdsWithSpace,
    // One streamable session is enough: a single ID with a space breaks the MUST.
    scenario: async (run) => void (await run.session('streamable')),
    judged: ['session-ids-visible-ascii'],
  },
];

/** Properties in a mutant's `breaks` that its scenario here does not show, and why. */
const beyondTheseScenarios: Record<string, PropertyId[]> = {
  // Here b's cursor is first a's event ID: the judges place the resume on a's stream, so b's wait
  // and retry count as the checker's own probing (HistoryView.isCursorProbe). The suite's
  // interleavings reach the stall and the second run on streams whose cursors place (a stream
  // whose IDs were not issued before), as test/suite/mutant-catalog.ts shows.
  'ids-reused-across-streams': ['no-silent-stall', 'at-most-once-effect'],
};

test('every code mutant has a case', () => {
  expect(cases.map((c) => c.name)).toEqual(catalog.codeMutants.map((m) => m.name));
});

test.each(cases.map((c) => [c.name, c] as const))('%s: the reference passes, the mutant fails exactly its judged properties', async (name, c) => {
  const mutant = catalog.mutantByName(name);
  expect(c.judged.every((id) => mutant.breaks.includes(id))).toBe(true);
  expect(mutant.breaks.filter((id) => !c.judged.includes(id)).sort()).toEqual((beyondTheseScenarios[name] ?? []).sort());

  for (const variant of ['reference', 'mutant'] as const) {
    const run = new Run(await serve(variant === 'mutant' ? c.mutation() : undefined));
    try {
      await c.scenario(run);
      expect(run.broken(), variant).toEqual(variant === 'reference' ? [] : [...c.judged].sort());
      expect(run.server.internalErrors).toEqual([]);
    } finally {
      run.close();
    }
  }
});
