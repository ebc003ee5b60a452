/**
 * The scenario driver: takes the model's world steps one at a time, does each to the candidate
 * over real HTTP with the checking client, and steps the model in lockstep. Where the candidate
 * answers what the model does not allow, the driver notes it (the oracle) and stops the scenario;
 * the properties then judge the recorded history.
 */
import type { Bounds } from '../../model/bounds.js';
import { otherTransport } from '../../model/transport.js';
import { describeStep } from '../../model/trace.js';
import type { World, WorldEvent, WorldStep } from '../../model/world-types.js';
import { canStep } from '../../model/world-steps.js';
import { clientCapabilities, garbageCursor, step as stepWorld } from '../../model/world.js';
import type { History, JsonRpcMessage } from '../../properties/history.js';
import { fixtureNotification, isResponse, isResponseTo } from '../../properties/messages.js';
import { legacySessionId } from '../../properties/history-view.js';
import { CheckClient, describeAnswer, describeOutcome, HistoryRecorder, type RequestHandle, type SseStream } from '../client/index.js';
import { oracleWorld } from './lockstep.js';
import type { CandidateAbilities, CandidateTarget, ClientSettings } from './types.js';

export interface DriverOptions {
  target: CandidateTarget;
  abilities: CandidateAbilities;
  client: ClientSettings;
  bounds: Bounds;
  timeoutMs: number;
  /** Prefix of this scenario's tool-call labels: unique per scenario, so effects never mix. */
  labelPrefix: string;
  /** How long to wait for what may never come (shortened once a suite has seen the candidate stay quiet). */
  settleWaitMs: () => number;
}

export class ScenarioDriver {
  readonly recorder = new HistoryRecorder();
  readonly client: CheckClient;
  world: World;
  /** Numbered steps in the protocol's words, with the candidate's answers. */
  readonly steps: string[] = [];
  /** Where the candidate's answer differed from what the model allows. */
  readonly oracle: string[] = [];
  /** Set when the scenario cannot go on (divergence, or a candidate that does not answer). */
  stopped: string | undefined;

  private readonly handles = new Map<string, SseStream>();
  /** Every request sent, with the session it was sent in and the model stream its answer comes on. */
  private readonly sent = new Map<string, { handle: RequestHandle; session: string | undefined; stream: string; call: string; unsolicited: boolean }>();
  private deleted = false;
  /** The model's ID of the current session's standalone stream. */
  private standaloneId: string | undefined;
  /** The Last-Event-ID the current step presented to the candidate. */
  private presented: string | undefined;
  /** Requests the candidate left waiting until the bound. */
  stalls = 0;
  private readonly labels = new Map<string, string>();
  private staleCursor: string | undefined;

  constructor(private readonly options: DriverOptions) {
    this.client = new CheckClient({
      baseUrl: options.target.url,
      paths: options.target.paths ?? {},
      timeoutMs: options.timeoutMs,
      cursorAdvance: options.client.cursorAdvance === 'onDrain' ? 'drain' : 'receive',
      dedup: options.client.dedup,
      recorder: this.recorder,
      capabilities: { ...clientCapabilities },
      clientInfo: { name: 'mcp-resume-spec', version: '0.1.0' },
    });
    this.world = oracleWorld(options.client, options.bounds);
  }

  get history(): History {
    return this.recorder.history;
  }

  get abilities(): CandidateAbilities {
    return this.options.abilities;
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

  /** Does one step to the candidate and to the model. Steps after a stop are ignored. */
  async apply(step: WorldStep): Promise<void> {
    if (this.stopped !== undefined) return;
    if (!canStep(this.world, step)) throw new Error(`step not enabled in the model: ${JSON.stringify(step)}`);
    const before = this.world;
    let words = describeStep(before, step);
    this.client.step(words);
    this.world = stepWorld(before, step);
    this.presented = undefined;
    const answer = await this.perform(before, step);
    // The model names its own event IDs; the trace shows the cursor the candidate was given.
    if (this.presented !== undefined) words = words.replace(/Last-Event-ID \S+/, `Last-Event-ID ${this.presented || '(none)'}`);
    this.steps.push(`${this.steps.length + 1}. ${words}${answer ? ` -> ${answer}` : ''}`);
  }

  private diverge(what: string): string {
    this.oracle.push(`step ${this.steps.length + 1}: ${what}`);
    this.stopped = what;
    return what;
  }

  private modelAnswer(): string {
    const last = this.world.last;
    if (!last) return 'nothing';
    // The model's reasons quote its own event IDs; say it without them.
    const reason = last.reason?.replace(/Last-Event-ID \S+ /, 'the Last-Event-ID ');
    return `${last.status}${reason ? ` (${reason})` : ''}`;
  }

  private label(call: string): string {
    let label = this.labels.get(call);
    if (!label) this.labels.set(call, (label = `${this.options.labelPrefix}${call}`));
    return label;
  }

  private async perform(before: World, step: WorldStep): Promise<string> {
    switch (step.type) {
      case 'INITIALIZE':
        return this.initialize(before, step.transport);
      case 'CALL':
        return this.call(step.unsolicited);
      case 'SEND':
        return ''; // the candidate sends by itself; RECEIVE waits for what it sent
      case 'RECEIVE':
        return this.receive(before, step.stream);
      case 'DRAIN': {
        const handle = this.handles.get(step.stream);
        if (!handle) return this.diverge(`no connection for stream ${step.stream}`);
        const drained = handle.drain();
        return drained.kind === 'frame' ? `${drained.frame.id ?? ''}${drained.duplicate ? ' (duplicate, discarded)' : ''}` : 'nothing to drain';
      }
      case 'DROP': {
        const handle = this.handles.get(step.stream);
        if (!handle) return this.diverge(`no connection for stream ${step.stream}`);
        const dropped = handle.drop();
        return `${dropped.undrained} undrained, ${dropped.inFlight} in flight lost`;
      }
      case 'RESUME':
        return this.resume(before, step);
      case 'DELETE': {
        this.deleted = true;
        const answer = await this.client.deleteSession();
        const status = answer.kind === 'error' ? undefined : answer.status;
        if (status === undefined || status >= 300) return this.diverge(`model expects 200 to DELETE; candidate answered ${describeAnswer(answer)}`);
        return String(status);
      }
      case 'TIMEOUT':
        return '';
    }
  }

  private async initialize(before: World, transport: 'sse' | 'streamable'): Promise<string> {
    const oldFirst = before.client.streams[0];
    const oldHandle = oldFirst && this.handles.get(oldFirst.id);
    if (oldHandle) this.staleCursor = oldHandle.cursor || this.lastIdOn(oldHandle.conn) || this.staleCursor;
    this.handles.clear();
    this.deleted = false;
    this.standaloneId = undefined;
    const outcome = await this.client.initialize({ transport, capabilities: { ...clientCapabilities } });
    if (!outcome.ok) return this.diverge(`initialize over ${transport} failed: ${outcome.reason}`);
    for (const stream of this.world.client.streams) {
      if (stream.kind === 'legacy' && this.client.session.legacyStream) this.handles.set(stream.id, this.client.session.legacyStream);
      if (stream.kind === 'standalone') {
        this.standaloneId = stream.id;
        const answer = await this.client.openStandalone();
        if (answer.kind !== 'stream') return this.diverge(`model opens the standalone GET stream; candidate answered ${describeAnswer(answer)}`);
        this.handles.set(stream.id, answer.stream);
        await this.takePriming(answer.stream);
      }
    }
    return `${outcome.sessionId ?? this.client.session.sessionId ?? 'no session ID'}`;
  }

  private async call(unsolicited: boolean): Promise<string> {
    const request = this.world.client.requests[this.world.client.requests.length - 1]!;
    const { fixtures } = this.options.abilities;
    const handle = fixtures.emit
      ? await this.client.callTool(unsolicited ? 'emit_unsolicited' : 'emit', { label: this.label(request.call), count: this.options.bounds.notifications })
      : await this.client.ping();
    this.sent.set(request.id, { handle, session: this.client.session.sessionId, stream: request.stream, call: request.call, unsolicited: request.unsolicited });
    const a = handle.answer;
    const status = a.kind === 'error' ? undefined : a.status;
    const modelRefuses = request.status === 'failed';
    if (status === undefined) return this.diverge(`model expects ${this.modelAnswer()}; candidate: ${describeAnswer(a)}`);
    if (modelRefuses !== status >= 300) return this.diverge(`model expects ${this.modelAnswer()}; candidate answered ${status}`);
    if (!modelRefuses && handle.stream && request.stream && !this.handles.has(request.stream)) {
      this.handles.set(request.stream, handle.stream);
      await this.takePriming(handle.stream);
    }
    return String(status);
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

  private async receive(before: World, streamId: string): Promise<string> {
    const expected = before.client.streams.find((s) => s.id === streamId)?.wire[0];
    const handle = this.handles.get(streamId);
    if (!handle || !expected) return this.diverge(`no connection or no frame expected on ${streamId}`);
    for (;;) {
      const r = await handle.receive(this.options.settleWaitMs(), `the model's next frame on ${streamId}`);
      if (r.kind === 'timeout') this.stalls++;
      if (r.kind === 'frame') {
        if (this.isNoise(r.frame.message, r.frame.event, r.frame.data)) {
          if (r.frame.event !== 'endpoint') handle.drain();
          continue;
        }
        if (!this.matches(expected, r.frame.message)) {
          return this.diverge(`model expects ${describeModelEvent(expected)} next on ${streamId}; candidate sent ${r.frame.data.slice(0, 160)}`);
        }
        return r.frame.id ?? '(no id)';
      }
      if (r.kind === 'error' && !r.final) continue;
      return this.diverge(`model expects ${describeModelEvent(expected)} on ${streamId}; candidate: ${describeOutcome(r)}`);
    }
  }

  private async resume(before: World, step: Extract<WorldStep, { type: 'RESUME' }>): Promise<string> {
    const handle = this.handles.get(step.stream);
    const transport = step.via === 'same' ? before.client.transport : otherTransport(before.client.transport);
    const lastEventId = step.cursor === 'own' ? (handle?.cursor ?? '') : step.cursor === 'garbage' ? garbageCursor : (this.staleCursor ?? garbageCursor);
    this.presented = lastEventId;
    if (lastEventId === '') {
      // The model's streams open with an event ID (a priming event); this one gave the client none.
      return this.diverge(`model resumes ${step.stream} from its opening event; the candidate sent no event ID on it to resume from (no priming event)`);
    }
    const answer = await this.client.resume({
      ...(handle ? { from: handle } : {}),
      endpoint: transport === 'sse' ? 'sse' : 'mcp',
      lastEventId,
      sessionId: this.client.session.sessionId ?? null,
      adopt: false,
    });
    const modelAccepts = this.world.client.phase === 'ready';
    const status = answer.kind === 'error' ? undefined : answer.status;
    let real: 'accepted' | 'refused' | 'silent' = status === undefined ? 'silent' : status < 300 && answer.kind === 'stream' ? 'accepted' : 'refused';
    if (real === 'accepted' && transport === 'sse' && answer.kind === 'stream') {
      // A legacy server answers GET /sse with a new session: for the client that is a refusal.
      if (await this.opensNewLegacySession(answer.stream)) real = 'refused';
    }
    // Whatever the model says, the client now holds what the candidate gave it.
    if (real === 'accepted' && answer.kind === 'stream') {
      this.handles.set(step.stream, answer.stream);
      // A resumed legacy stream is the session's one stream again, whichever endpoint carries it
      // now: later legacy answers come on this connection.
      if (handle !== undefined && this.client.session.legacyStream === handle) this.client.session.legacyStream = answer.stream;
    }
    const said = real === 'silent' ? describeAnswer(answer) : `${status}`;
    if (real === 'silent') return this.diverge(`model expects ${this.modelAnswer()}; candidate: ${said}`);
    if ((real === 'accepted') !== modelAccepts) {
      return this.diverge(`model expects ${this.modelAnswer()}; candidate answered ${said}${real === 'refused' && status !== undefined && status < 300 ? ' (a new legacy session)' : ''}`);
    }
    return said;
  }

  private async opensNewLegacySession(stream: SseStream): Promise<boolean> {
    // Only a fresh legacy session starts with an endpoint event; look without consuming a replay.
    const first = await stream.peek(this.options.settleWaitMs());
    if (first === undefined && stream.state === 'open') this.stalls++;
    if (first?.event !== 'endpoint') return false;
    const announced = legacySessionId(first.data);
    await stream.receive(this.options.timeoutMs); // recorded, so the judges see the new session too
    stream.drop();
    return announced !== undefined && announced !== this.client.session.sessionId;
  }

  /**
   * Ends the scenario as a client would, following what the candidate actually did (not the
   * model, which may have been left behind at a divergence): waits (bounded) for every
   * unanswered request of the current session on its live connection, retries a timed-out call
   * once if the client retries, drains what remains, and asks the session which capabilities it
   * serves under.
   */
  async settle(): Promise<void> {
    const sessionId = this.client.session.sessionId;
    if (sessionId === undefined || this.deleted) return;
    // The application first processes what it has received; then answered means processed (a
    // response received and then lost in a drop is still owed).
    for (const stream of this.handles.values()) if (stream.state !== 'dropped') stream.drainAll();
    const answered = new Set<unknown>();
    for (const e of this.recorder.history.entries) if (e.type === 'drain' && !e.duplicate && isResponse(e.message)) answered.add(e.message.id);
    for (const sent of this.sent.values()) {
      if (sent.session !== sessionId || answered.has(sent.handle.id)) continue;
      const stream = this.handles.get(sent.stream);
      if (!stream || stream.state === 'dropped') continue;
      const outcome = await this.client.awaitResponseOn(stream, sent.handle.id, { timeoutMs: this.options.settleWaitMs() }, sent.handle.method);
      if (outcome.kind !== 'timeout') continue;
      this.stalls++;
      if (this.options.client.retryOnTimeout && this.options.abilities.fixtures.emit) {
        this.client.step(`client retries ${sent.call} after its timeout`);
        const retry = await this.client.callTool(sent.unsolicited ? 'emit_unsolicited' : 'emit', {
          label: this.label(sent.call),
          count: this.options.bounds.notifications,
        });
        await retry.response({ timeoutMs: this.options.settleWaitMs() });
        this.steps.push(`${this.steps.length + 1}. ${sent.call} times out; client retries it`);
      }
    }
    await this.drainUnsolicited(sessionId);
    for (const stream of this.handles.values()) if (stream.state !== 'dropped') stream.drainAll();
    if (this.options.abilities.fixtures.sessionInfo) {
      const info = await this.client.callTool('session_info', {});
      await info.response({ timeoutMs: this.options.settleWaitMs() });
    }
  }

  /** Receives what the session's unsolicited calls still owe on the standalone stream (bounded). */
  private async drainUnsolicited(sessionId: string): Promise<void> {
    const standalone = this.standaloneId === undefined ? undefined : this.handles.get(this.standaloneId);
    if (!standalone || standalone.state !== 'open') return;
    const labels = new Set([...this.sent.values()].filter((x) => x.unsolicited && x.session === sessionId).map((x) => this.label(x.call)));
    standalone.drainAll(); // what was received already counts
    let drained = 0;
    for (const e of this.recorder.history.entries) {
      if (e.type !== 'drain' || e.duplicate) continue;
      const note = fixtureNotification(e.message);
      if (note && labels.has(note.label)) drained++;
    }
    const owed = labels.size * this.options.bounds.notifications - drained;
    for (let i = 0; i < owed; i++) {
      const r = await standalone.receive(this.options.settleWaitMs(), 'an unsolicited notification');
      if (r.kind === 'timeout') this.stalls++;
      if (r.kind !== 'frame') break;
      standalone.drainAll();
    }
  }

  close(): void {
    this.client.close();
  }
}

function describeModelEvent(event: WorldEvent): string {
  const m = event.message!;
  return m.kind === 'result' ? `the result of ${m.call}` : `notification ${m.seq} of ${m.call}`;
}
