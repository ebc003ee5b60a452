/**
 * The scenario driver: takes the model's world steps one at a time, does each to the candidate
 * over real HTTP with the checking client, and steps the model in lockstep. Where the candidate
 * answers what the model does not allow, the driver notes the model's expectation on that step
 * (a divergence) and goes on where the model can follow: steps on a stream the candidate left are
 * left out, the rest run. The properties then judge the recorded history.
 */
import type { Bounds } from '../../model/bounds.js';
import { otherTransport } from '../../model/transport.js';
import { frameRef, modelAnswer, stepAsData } from '../../model/trace.js';
import { diverged, type FrameRef, type StepAnswer, type TraceStepData } from '../../model/trace-step.js';
import { stepAction } from '../../model/trace-text.js';
import type { World, WorldEvent, WorldStep } from '../../model/world-types.js';
import { canStep } from '../../model/world-steps.js';
import { clientCapabilities, garbageCursor, step as stepWorld } from '../../model/world.js';
import type { History, JsonRpcMessage } from '../../properties/history.js';
import { fixtureNotification, isResponse, isResponseTo } from '../../properties/messages.js';
import { HistoryView, legacySessionId } from '../../properties/history-view.js';
import { CheckClient, describeAnswer, describeOutcome, HistoryRecorder, type Answer, type RequestHandle, type SseStream } from '../wire/index.js';
import { drivableSteps, oracleWorld } from './lockstep.js';
import type { CandidateAbilities, CandidateTarget, ClientSettings } from './types.js';
import { toolVersion } from '../version.js';

export interface DriverOptions {
  target: CandidateTarget;
  abilities: CandidateAbilities;
  client: ClientSettings;
  bounds: Bounds;
  /** Bound of every wait for the candidate, ms: a stall is only ever concluded after a full one. */
  timeoutMs: number;
  /** Prefix of this scenario's tool-call labels: unique per scenario, so effects never mix. */
  labelPrefix: string;
}

/** A request sent, with the session it was sent in and the model stream its answer comes on. */
interface Sent {
  handle: RequestHandle;
  session: string | undefined;
  stream: string;
  call: string;
  unsolicited: boolean;
}

/** The steps the suite drives, with the candidate's answers (data; reports render them). */
export class ScenarioDriver {
  readonly recorder = new HistoryRecorder();
  readonly client: CheckClient;
  world: World;
  /** The steps done, each with the candidate's answer and, where it left the model, the model's. */
  readonly steps: TraceStepData[] = [];
  /** Set when the scenario cannot go on at all (no session to go on with). */
  stopped: string | undefined;
  /**
   * Model streams the candidate no longer follows (it refused, closed or never opened them where
   * the model has them): steps on them are left out; the rest of the scenario goes on.
   */
  readonly unfollowed = new Set<string>();
  /** Steps left out because the model and the candidate parted on their stream. */
  skipped = 0;

  private readonly handles = new Map<string, SseStream>();
  /** Every request sent, with the session it was sent in and the model stream its answer comes on. */
  private readonly sent = new Map<string, Sent>();
  private deleted = false;
  /** The model's ID of the current session's standalone stream. */
  private standaloneId: string | undefined;
  private readonly labels = new Map<string, string>();
  private staleCursor: string | undefined;
  /** {@link drivable}'s answer for the current step, until the next one. */
  private drivableNow: readonly WorldStep[] | undefined;

  constructor(private readonly options: DriverOptions) {
    this.client = new CheckClient({
      baseUrl: options.target.url,
      paths: options.target.paths ?? {},
      headers: options.target.headers ?? {},
      timeoutMs: options.timeoutMs,
      cursorAdvance: options.client.cursorAdvance === 'onDrain' ? 'drain' : 'receive',
      dedup: options.client.dedup,
      recorder: this.recorder,
      capabilities: { ...clientCapabilities },
      clientInfo: { name: 'mcp-resume-spec', version: toolVersion() },
      // A TCP handshake per request was a fifth of a scenario's CPU time; nothing judged depends on sockets.
      keepAlive: true,
    });
    this.world = oracleWorld(options.client, options.bounds);
  }

  get history(): History {
    return this.recorder.history;
  }

  get abilities(): CandidateAbilities {
    return this.options.abilities;
  }

  /** The index of the first step where the candidate left the model, if any. */
  get firstDivergence(): number | undefined {
    return this.steps.find(diverged)?.index;
  }

  /**
   * The steps the driver can take now ({@link follows}), in the model's order. Kept until the next
   * step: fast-check asks every command twice (check, run), and most commands it tries do not fit.
   */
  drivable(): readonly WorldStep[] {
    if (this.drivableNow === undefined) {
      // `drivableSteps` are steps the model allows (`enabledSteps`), so `follows` needs only the stream check.
      this.drivableNow =
        this.stopped !== undefined ? [] : drivableSteps(this.world, this.options.abilities).filter((s) => !('stream' in s) || !this.unfollowed.has(s.stream));
    }
    return this.drivableNow;
  }

  /** Whether the driver can take `step` now: the model allows it and the candidate still follows its stream. */
  follows(step: WorldStep): boolean {
    if (this.stopped !== undefined || !canStep(this.world, step)) return false;
    return !('stream' in step) || !this.unfollowed.has(step.stream);
  }

  /** Follows model stream `id` on `stream`'s connection, named in the history as the trace names it. */
  private follow(id: string, stream: SseStream): void {
    this.handles.set(id, stream);
    this.recorder.nameStream(stream.conn, `stream ${id}`);
  }

  /** The last event ID received on a connection. */
  private lastIdOn(conn: number): string | undefined {
    const entries = this.recorder.history.entries;
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i]!;
      if (e.type === 'receive' && e.conn === conn && e.id) return e.id;
    }
    return undefined;
  }

  /**
   * Does one step to the candidate and to the model. A step the driver cannot follow (after a
   * stop, or on a stream the candidate left) is left out; returns whether it was done.
   */
  async apply(step: WorldStep): Promise<boolean> {
    if (!this.follows(step) || this.unoffered(step) || this.namesOwnEvent(step)) {
      if (this.stopped === undefined) this.skipped++;
      return false;
    }
    this.drivableNow = undefined;
    const before = this.world;
    const modelData = stepAsData(before, step, this.steps.length + 1);
    // Without the emit fixture tool a call is sent as a ping (see call()): the trace names what was sent.
    const data = modelData.kind === 'call' && !this.options.abilities.fixtures.emit ? sentAsPing(modelData) : modelData;
    this.world = stepWorld(before, step);
    const model = modelAnswer(before, step, this.world, { eventIds: false });
    this.client.step(stepAction(data));
    this.current = { data, model };
    data.answer = await this.perform(before, step);
    // Where the candidate parted from the model, fewer steps are drivable: asked afresh.
    this.drivableNow = undefined;
    this.steps.push(data);
    return true;
  }

  /**
   * Whether the stream a resume names never sent the client an event ID: a made-up (`garbage`) or
   * earlier session's (`stale`) cursor presented on it is then a probe of the candidate's answer,
   * not a resumption the client would ever attempt.
   */
  private probes(step: WorldStep): boolean {
    if (step.type !== 'RESUME' || step.cursor === 'own') return false;
    const handle = this.handles.get(step.stream);
    return !handle || !(handle.cursor || this.lastIdOn(handle.conn));
  }

  /**
   * Whether a resume meant to present a cursor of no event of this session (an earlier session's,
   * or a made-up one) would present an event ID this session has sent the client. Event IDs are
   * unique within a session only, so a candidate may mint in one session the IDs it minted in the
   * last: the cursor then names an event of this session, which the candidate rightly resumes, and
   * the step no longer asks what the model asks. It is left out.
   */
  private namesOwnEvent(step: WorldStep): boolean {
    if (step.type !== 'RESUME' || step.cursor === 'own') return false;
    const cursor = step.cursor === 'garbage' ? garbageCursor : this.staleCursor;
    const session = this.client.session.sessionId;
    if (cursor === undefined || session === undefined) return false;
    return new HistoryView(this.history).framesWithId(cursor, session).length > 0;
  }

  /** A probing resume of a candidate that offers no resumption: nothing a client of it would do. */
  private unoffered(step: WorldStep): boolean {
    return this.options.abilities.resumption?.offered === false && this.probes(step);
  }

  /** The step being done and the model's answer to it. */
  private current: { data: TraceStepData; model: StepAnswer } | undefined;

  /**
   * Notes that the candidate answered what the model does not allow; `unfollow` names the model
   * stream the candidate no longer follows, `stop` ends the scenario. Returns the candidate's answer.
   */
  private diverge(answer: StepAnswer, expected: StepAnswer, then: { unfollow?: string; stop?: boolean } = {}): StepAnswer {
    const current = this.current!;
    current.data.expected = expected;
    if (then.unfollow !== undefined) this.unfollowed.add(then.unfollow);
    if (then.stop) this.stopped = `step ${current.data.index}`;
    return answer;
  }

  /** The model's HTTP answer (its reason names none of the model's event IDs: see `apply`). */
  private modelStatus(): StepAnswer {
    const { model } = this.current!;
    if (model.status === undefined) return {};
    return model.reason ? { status: model.status, reason: model.reason } : { status: model.status };
  }

  private label(call: string): string {
    let label = this.labels.get(call);
    if (!label) this.labels.set(call, (label = `${this.options.labelPrefix}${call}`));
    return label;
  }

  private async perform(before: World, step: WorldStep): Promise<StepAnswer> {
    switch (step.type) {
      case 'INITIALIZE':
        return this.initialize(before, step.transport);
      case 'CALL':
        return this.call(step.unsolicited);
      case 'SEND':
        return {}; // the candidate sends by itself; RECEIVE waits for what it sent
      case 'RECEIVE':
        return this.receive(before, step.stream);
      case 'DRAIN': {
        const handle = this.handles.get(step.stream);
        if (!handle) return this.diverge({ missing: 'connection' }, this.current!.model, { unfollow: step.stream });
        const drained = handle.drain();
        if (drained.kind !== 'frame') return { nothing: true };
        return { frames: [this.frameOf(before, step.stream, drained.frame)], ...(drained.duplicate ? { duplicate: true } : {}) };
      }
      case 'DROP': {
        const handle = this.handles.get(step.stream);
        if (!handle) return this.diverge({ missing: 'connection' }, this.current!.model, { unfollow: step.stream });
        const { undrained, inFlight } = handle.drop();
        return { lost: { undrained, inFlight } };
      }
      case 'RESUME':
        return this.resume(before, step);
      case 'DELETE': {
        this.keepStaleCursor(before);
        this.deleted = true;
        const answer = await this.client.deleteSession();
        const status = answer.kind === 'error' ? undefined : answer.status;
        if (status === undefined || status >= 300) return this.diverge(answerOf(answer), { status: 200 });
        return { status };
      }
      case 'TIMEOUT':
        return {};
      case 'EXPIRE':
      case 'TRIM':
        return {}; // never drivable (lockstep.ts): a candidate expires and trims on its own clocks
    }
  }

  /** A received frame as data: the candidate's event ID, and the model's message where it is the one expected. */
  private frameOf(before: World, streamId: string, frame: { id?: string | undefined; message?: JsonRpcMessage | undefined }): FrameRef {
    const stream = before.client.streams.find((s) => s.id === streamId);
    const expected = stream?.inbox[0] ?? stream?.wire[0];
    const ref: FrameRef = frame.id !== undefined ? { id: frame.id } : {};
    if (expected?.message && this.matches(expected, frame.message)) {
      ref.call = expected.message.call;
      ref.seq = expected.message.kind === 'result' ? 0 : expected.message.seq;
    }
    return ref;
  }

  /** As the model does when a session is left (re-initialized or deleted): its first stream's cursor becomes the stale one. */
  private keepStaleCursor(before: World): void {
    const oldFirst = before.client.streams[0];
    const oldHandle = oldFirst && this.handles.get(oldFirst.id);
    if (oldHandle) this.staleCursor = oldHandle.cursor || this.lastIdOn(oldHandle.conn) || this.staleCursor;
  }

  private async initialize(before: World, transport: 'sse' | 'streamable'): Promise<StepAnswer> {
    this.keepStaleCursor(before);
    this.handles.clear();
    this.unfollowed.clear();
    this.deleted = false;
    this.standaloneId = undefined;
    const outcome = await this.client.initialize({ transport, capabilities: { ...clientCapabilities } });
    // Without a session there is nothing left to step through.
    if (!outcome.ok) return this.diverge({ error: `initialize failed: ${outcome.reason}` }, this.modelStatus(), { stop: true });
    const answer: StepAnswer = { sessionId: outcome.sessionId ?? this.client.session.sessionId ?? 'no session ID' };
    for (const stream of this.world.client.streams) {
      if (stream.kind === 'legacy' && this.client.session.legacyStream) this.follow(stream.id, this.client.session.legacyStream);
      if (stream.kind === 'standalone') {
        this.standaloneId = stream.id;
        const opened = await this.client.openStandalone();
        if (opened.kind !== 'stream') {
          // The session goes on; only its standalone GET stream is not there to follow.
          return this.diverge(
            { ...answer, ...answerOf(opened), reason: 'to the standalone GET' },
            { status: 200, reason: 'to the standalone GET' },
            { unfollow: stream.id },
          );
        }
        this.follow(stream.id, opened.stream);
        await this.takePriming(opened.stream);
      }
    }
    return answer;
  }

  private async call(unsolicited: boolean): Promise<StepAnswer> {
    const request = this.world.client.requests[this.world.client.requests.length - 1]!;
    const { fixtures } = this.options.abilities;
    const handle = fixtures.emit
      ? await this.client.callTool(unsolicited ? 'emit_unsolicited' : 'emit', { label: this.label(request.call), count: this.options.bounds.notifications })
      : await this.client.ping();
    this.sent.set(request.id, { handle, session: this.client.session.sessionId, stream: request.stream, call: request.call, unsolicited: request.unsolicited });
    const a = handle.answer;
    const status = a.kind === 'error' ? undefined : a.status;
    const modelRefuses = request.status === 'failed';
    // The candidate's answer stream, if any, is not the model's: its steps are left out.
    if (status === undefined || modelRefuses !== status >= 300) return this.diverge(answerOf(a), this.modelStatus(), { unfollow: request.stream });
    if (!modelRefuses && handle.stream && request.stream && !this.handles.has(request.stream)) {
      this.follow(request.stream, handle.stream);
      await this.takePriming(handle.stream);
    }
    // Answered with a body where the model opens a stream (a JSON body: the spec allows both), so
    // the model's steps on that stream have nothing to follow. Said once, here, not at each of them.
    if (!modelRefuses && a.kind === 'body' && request.stream && !this.handles.has(request.stream)) {
      const answer = a.json !== undefined ? { status: a.status, jsonBody: true } : { status: a.status };
      return this.diverge(answer, { ...this.modelStatus(), opens: request.stream }, { unfollow: request.stream });
    }
    return { status };
  }

  /**
   * The model delivers a stream's opening event with the stream (its ID is the first cursor). A
   * candidate's priming event (an ID, empty data) is taken the same way: received and processed now.
   */
  private async takePriming(stream: SseStream): Promise<void> {
    // A priming event comes with the response's headers; a stream without one is not waited on.
    const first = await stream.peek(Math.min(50, this.options.timeoutMs));
    if (first?.data !== '' || first.id === undefined) return;
    await stream.receive(this.options.timeoutMs);
    stream.drainAll();
  }

  /** Whether a real message is the model's frame (same notification or same response). */
  private matches(expected: WorldEvent, message: JsonRpcMessage | undefined): boolean {
    const m = expected.message;
    if (!m) return false;
    if (m.kind === 'result') {
      const sent = this.sent.get(m.request);
      return sent !== undefined && isResponseTo(message, sent.handle.id);
    }
    const note = fixtureNotification(message);
    return note !== undefined && note.label === this.label(m.call) && note.seq === m.seq;
  }

  /** Transport noise the model has no event for: priming frames, endpoint events, other notifications. */
  private isNoise(message: JsonRpcMessage | undefined, event: string, data: string): boolean {
    if (event === 'endpoint' || data === '') return true;
    if (message === undefined) return false;
    return message.method !== undefined ? fixtureNotification(message) === undefined : !isResponse(message);
  }

  private async receive(before: World, streamId: string): Promise<StepAnswer> {
    const expected = before.client.streams.find((s) => s.id === streamId)?.wire[0];
    const handle = this.handles.get(streamId);
    const want: StepAnswer = expected ? { frame: frameRef(expected) } : { missing: 'frame' };
    if (!handle) return this.diverge({ missing: 'connection' }, want, { unfollow: streamId });
    if (!expected) return this.diverge({}, want, { unfollow: streamId });
    for (;;) {
      const r = await handle.receive(this.options.timeoutMs, `the model's next frame on ${streamId}`);
      if (r.kind === 'frame') {
        if (this.isNoise(r.frame.message, r.frame.event, r.frame.data)) {
          if (r.frame.event !== 'endpoint') handle.drain();
          continue;
        }
        if (!this.matches(expected, r.frame.message)) {
          const got: StepAnswer = { data: r.frame.data.slice(0, 160) };
          if (r.frame.id !== undefined) got.frames = [{ id: r.frame.id }];
          return this.diverge(got, want, { unfollow: streamId });
        }
        return { frames: [{ ...frameRef(expected), id: r.frame.id ?? '(no id)' }] };
      }
      if (r.kind === 'error' && !r.final) continue;
      return this.diverge({ error: describeOutcome(r) }, want, { unfollow: streamId });
    }
  }

  private async resume(before: World, step: Extract<WorldStep, { type: 'RESUME' }>): Promise<StepAnswer> {
    const handle = this.handles.get(step.stream);
    const probe = this.probes(step);
    const transport = step.via === 'same' ? before.client.transport : otherTransport(before.client.transport);
    // No made-up cursor stands in for a stale one: without an earlier session's ID there is none to present.
    const lastEventId = step.cursor === 'own' ? (handle?.cursor ?? '') : step.cursor === 'garbage' ? garbageCursor : (this.staleCursor ?? '');
    // The model names its own event IDs; the trace shows the cursor the candidate was given.
    this.current!.data.cursor = { value: lastEventId === '' ? null : lastEventId, origin: step.cursor };
    const modelAccepts = this.world.client.phase === 'ready';
    if (lastEventId === '') {
      // The model's streams open with an event ID (a priming event); this one gave the client none,
      // or (a stale cursor) no earlier session did: the resume is left out, as the model cannot follow.
      const why = step.cursor === 'stale' ? 'no earlier session gave an event ID to present as a stale cursor' : `${step.stream} gave no event ID to present`;
      return this.diverge({ error: why }, { missing: 'cursor' }, { unfollow: step.stream });
    }
    const answer = await this.client.resume({
      ...(handle ? { from: handle } : {}),
      endpoint: transport === 'sse' ? 'sse' : 'mcp',
      lastEventId,
      sessionId: this.client.session.sessionId ?? null,
      adopt: false,
    });
    const status = answer.kind === 'error' ? undefined : answer.status;
    let real: 'accepted' | 'refused' | 'silent' = status === undefined ? 'silent' : status < 300 && answer.kind === 'stream' ? 'accepted' : 'refused';
    let newSession = false;
    if (real === 'accepted' && transport === 'sse' && answer.kind === 'stream') {
      // A legacy server answers GET /sse with a new session: for the client that is a refusal.
      if (await this.opensNewLegacySession(answer.stream)) {
        real = 'refused';
        newSession = true;
      }
    }
    // Whatever the model says, the client now holds what the candidate gave it; a probe's answer
    // never becomes the stream's handle, so the scenario's end neither waits on it nor retries through it.
    if (real === 'accepted' && answer.kind === 'stream' && !probe) {
      this.follow(step.stream, answer.stream);
      // A resumed legacy stream is the session's one stream again, whichever endpoint carries it
      // now: later legacy answers come on this connection.
      if (handle !== undefined && this.client.session.legacyStream === handle) this.client.session.legacyStream = answer.stream;
    }
    const said: StepAnswer = real === 'silent' ? answerOf(answer) : newSession ? { status: status!, newSession } : { status: status! };
    // The model goes on where it can: a refusal it did not expect leaves this stream unfollowed;
    // an acceptance it did not expect leaves the model asking for a new session, as it would.
    if (real === 'silent' || (real === 'accepted') !== modelAccepts) return this.diverge(said, this.modelStatus(), { unfollow: step.stream });
    return said;
  }

  private async opensNewLegacySession(stream: SseStream): Promise<boolean> {
    // Only a fresh legacy session starts with an endpoint event; look without consuming a replay.
    const first = await stream.peek(this.options.timeoutMs);
    if (first?.event !== 'endpoint') return false;
    const announced = legacySessionId(first.data);
    await stream.receive(this.options.timeoutMs); // recorded, so the judges see the new session too
    stream.drop();
    return announced !== undefined && announced !== this.client.session.sessionId;
  }

  /**
   * Ends the scenario as a client would, following what the candidate actually did (not the
   * model, which may have been left behind at a divergence): waits (bounded, full length) for
   * every unanswered request of the current session on its live connection, retries a timed-out
   * call once if the client retries, drains what remains, and asks the session which capabilities
   * it serves under.
   */
  async settle(): Promise<void> {
    const sessionId = this.client.session.sessionId;
    if (sessionId === undefined || this.deleted) return;
    // The application first processes what it has received; then answered means processed (a
    // response received and then lost in a drop is still owed).
    for (const stream of this.handles.values()) if (stream.state !== 'dropped') stream.drainAll();
    const answered = new Set<unknown>();
    for (const e of this.recorder.history.entries) if (e.type === 'drain' && !e.duplicate && isResponse(e.message)) answered.add(e.message.id);
    // Each owed response gets a full-length wait; waits on different streams run side by side.
    const owed = new Map<SseStream, Array<[string, Sent]>>();
    for (const [request, sent] of this.sent) {
      if (sent.session !== sessionId || answered.has(sent.handle.id)) continue;
      const stream = this.handles.get(sent.stream);
      if (!stream || stream.state === 'dropped') continue;
      owed.set(stream, [...(owed.get(stream) ?? []), [request, sent]]);
    }
    const timedOut: Array<[string, Sent]> = [];
    const waits = [...owed].map(async ([stream, requests]) => {
      for (const [request, sent] of requests) {
        const outcome = await this.client.awaitResponseOn(stream, sent.handle.id, { timeoutMs: this.options.timeoutMs }, sent.handle.method);
        if (outcome.kind === 'timeout') timedOut.push([request, sent]);
      }
    });
    await Promise.all([...waits, this.drainUnsolicited(sessionId)]);
    const retries: TraceStepData[] = [];
    if (this.options.client.retryOnTimeout && this.options.abilities.fixtures.emit) {
      // Numbered in the order the calls were made, so the trace does not depend on which wait ended first.
      const order = [...this.sent.keys()];
      timedOut.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
      for (const [request, sent] of timedOut) {
        const retry: TraceStepData = { index: this.steps.length + 1, kind: 'timeout', actor: 'client', call: sent.call, request, retries: true, answer: {} };
        this.client.step(stepAction(retry));
        this.steps.push(retry);
        retries.push(retry);
      }
    }
    const legacy = this.client.session.transport === 'sse';
    const retried = async (retry: TraceStepData, sent: Sent): Promise<void> => {
      const again = await this.client.callTool(sent.unsolicited ? 'emit_unsolicited' : 'emit', {
        label: this.label(sent.call),
        count: this.options.bounds.notifications,
      });
      const answer = await again.response({ timeoutMs: this.options.timeoutMs });
      retry.answer = answer.kind === 'response' ? { status: 200 } : { error: describeOutcome(answer) };
    };
    const sessionInfo = async (): Promise<void> => {
      if (!this.options.abilities.fixtures.sessionInfo) return;
      // A step of its own when nothing runs beside it, so that a failure it shows (a stall) has
      // its call in the trace; beside retries, what happens in it could not be told apart.
      const step: TraceStepData | undefined =
        retries.length === 0
          ? { index: this.steps.length + 1, kind: 'call', actor: 'client', tool: 'session_info', transport: this.client.session.transport!, answer: {} }
          : undefined;
      if (step) {
        this.client.step(stepAction(step));
        this.steps.push(step);
      }
      const info = await this.client.callTool('session_info', {});
      const answer = await info.response({ timeoutMs: this.options.timeoutMs });
      if (step) step.answer = answer.kind === 'response' ? { status: 200 } : { error: describeOutcome(answer) };
    };
    if (legacy) {
      // Legacy answers share the session's one stream: one reader at a time. Once a retry got no
      // answer on it in a full-length wait, session_info would get none either.
      for (const [i, retry] of retries.entries()) await retried(retry, timedOut[i]![1]);
      for (const stream of this.handles.values()) if (stream.state !== 'dropped') stream.drainAll();
      if (retries.every((r) => r.answer.error === undefined)) await sessionInfo();
    } else {
      // Each POST's answer comes on its own stream: the waits run side by side.
      await Promise.all([...retries.map((retry, i) => retried(retry, timedOut[i]![1])), sessionInfo()]);
    }
    for (const stream of this.handles.values()) if (stream.state !== 'dropped') stream.drainAll();
  }

  /** Receives what the session's unsolicited calls still owe on the standalone stream (bounded). */
  private async drainUnsolicited(sessionId: string): Promise<void> {
    const standalone = this.standaloneId === undefined ? undefined : this.handles.get(this.standaloneId);
    if (standalone?.state !== 'open') return;
    const labels = new Set([...this.sent.values()].filter((x) => x.unsolicited && x.session === sessionId).map((x) => this.label(x.call)));
    standalone.drainAll(); // what was received already counts
    // Distinct notifications: a client without dedup processes a replayed copy again.
    const owed = () => {
      const drained = new Set<string>();
      for (const e of this.recorder.history.entries) {
        if (e.type !== 'drain' || e.duplicate) continue;
        const note = fixtureNotification(e.message);
        if (note && labels.has(note.label)) drained.add(`${note.label}#${note.seq}`);
      }
      return labels.size * this.options.bounds.notifications - drained.size;
    };
    // Until nothing is owed: a replay may bring copies first, so frames are read while
    // notifications are owed, at most as many more as have been drained (every one copied).
    const bound = labels.size * this.options.bounds.notifications * 2 + 2;
    for (let frames = 0; frames < bound && owed() > 0; frames++) {
      const r = await standalone.receive(this.options.timeoutMs, 'an unsolicited notification');
      if (r.kind !== 'frame') break;
      standalone.drainAll();
    }
  }

  close(): void {
    this.client.close();
  }
}

/** A candidate's HTTP answer as data. */
function answerOf(a: Answer): StepAnswer {
  return a.kind === 'error' ? { error: describeAnswer(a) } : { status: a.status };
}

/** A model call step as the ping sent in its place. */
function sentAsPing(step: TraceStepData): TraceStepData {
  const { tool: _tool, notifications: _notifications, ...rest } = step;
  return { ...rest, kind: 'ping', detail: `in place of call ${step.call ?? ''} (no emit fixture tool)`.replace('  ', ' ') };
}
