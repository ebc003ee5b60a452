/**
 * The one renderer of trace steps into sentences, in the protocol's words: the model's traces
 * (`explore`, docs) and the suite's candidate runs (every report) print through it. Nothing reads
 * these sentences back; diagrams and grouping use the step values themselves.
 */
import type { FrameRef, StepAnswer, TraceStepData } from './trace-step.js';

/** A frame as `ID(c1#2)`, `ID(result c1)`, `ID(priming)`, or the bare ID when its message is unknown. */
export function frameLabel(frame: FrameRef): string {
  const id = frame.id ?? '(no id)';
  if (frame.call !== undefined) return frame.seq === 0 ? `${id}(result ${frame.call})` : `${id}(${frame.call}#${frame.seq})`;
  if (frame.opening !== undefined) return `${id}(${frame.opening})`;
  return id;
}

/** What the step did, as a sentence without its answer. */
export function stepAction(step: TraceStepData): string {
  const over = step.transport ? ` over ${step.transport}` : '';
  const detail = step.detail ? `, ${step.detail}` : '';
  const session = step.session === 'deleted' ? ' with the deleted session ID' : step.session === 'other' ? " with another session's ID" : '';
  switch (step.kind) {
    case 'initialize':
      return `client ${step.reinitialize ? 're-initializes' : 'initializes'}${over}${detail}`;
    case 'call': {
      const n = step.notifications !== undefined ? ` (${step.notifications} notifications)` : '';
      return `client calls ${step.tool ?? 'emit'}${step.call ? ` ${step.call}` : ''}${n}${over}${session}${detail}`;
    }
    case 'ping':
      return `client pings${over}${session}${detail}`;
    case 'send':
      return `server sends the next event on stream ${step.stream}`;
    case 'receive':
      return `client receives a frame on ${step.stream ?? 'the stream'}${detail}`;
    case 'drain':
      return `application drains a frame of ${step.stream ?? 'the stream'}${detail}`;
    case 'drop': {
      const lost = step.lost === undefined ? '' : ` (${step.lost === 0 ? 'clean' : `unclean: ${step.lost} frame(s) in flight or undrained lost`})`;
      return `connection of ${step.stream ?? 'the stream'} drops${lost}${detail}`;
    }
    case 'resume': {
      const how = step.migrate ? ` by migrating to ${step.transport}` : over;
      // No value: the client had none of that origin (a stale one is an earlier session's, whatever this stream sent).
      const origin = step.cursor?.origin === 'own' ? '' : ` ${step.cursor?.origin}`;
      const cursor = !step.cursor
        ? ''
        : step.cursor.value == null
          ? ` with no${origin} Last-Event-ID`
          : ` with Last-Event-ID ${step.cursor.value}${origin === '' ? '' : ` (${step.cursor.origin})`}`;
      return `client resumes ${step.stream ?? 'the stream'}${how}${cursor}${session}${detail}`;
    }
    case 'timeout': {
      const what = step.request !== undefined ? `request ${step.request} (${step.call})` : `${step.call}`;
      return `${what} times out${step.retries ? '; client retries it' : ''}`;
    }
    case 'delete':
      return `client DELETEs the session${detail}`;
    case 'expire':
      return `the session, idle, expires on the server${detail}`;
    case 'trim':
      return `the server's log retention drops the session's oldest retained event${detail}`;
  }
}

/** An answer (the model's or the candidate's) as the words after `->`. */
export function answerText(step: Pick<TraceStepData, 'kind' | 'stream'>, a: StepAnswer): string {
  if (a.error !== undefined) return a.error;
  // The candidate has no connection carrying the stream (it answered without one, or left it).
  if (a.missing === 'connection') return `no connection for stream ${step.stream}`;
  if (a.missing === 'cursor') return `an event ID on ${step.stream} to resume from (a priming event)`;
  if (a.missing === 'frame') return `a frame on ${step.stream}`;
  if (a.frame !== undefined) return a.frame.seq === 0 ? `the result of ${a.frame.call}` : `notification ${a.frame.seq} of ${a.frame.call}`;
  if (a.data !== undefined) return `a frame that matches nothing expected: ${a.data}`;
  const frames = a.frames ?? [];
  switch (step.kind) {
    case 'send':
      return frames[0] ? `${frameLabel(frames[0])}${a.logOnly ? ' to the log only (no connection)' : ' on the wire'}` : '';
    case 'receive':
      return frames[0] ? frameLabel(frames[0]) : '';
    case 'drain':
      if (a.nothing) return 'nothing to drain';
      return frames[0] ? `${frameLabel(frames[0])}${a.duplicate ? ' discarded (duplicate)' : ''}` : '';
    case 'drop':
      return a.lost ? `${a.lost.undrained} undrained, ${a.lost.inFlight} in flight lost` : '';
    case 'resume':
      if (a.status !== undefined && a.status < 300 && a.stream === 'replay') return `${a.status}, replays [${frames.map(frameLabel).join(' ')}]`;
      if (a.status !== undefined && a.status < 300 && a.stream === 'quiet') return `${a.status}, a quiet stream`;
      if (a.newSession) return `${a.status} (a new legacy session)`;
      break;
    default:
      break;
  }
  if (a.status === undefined) return a.sessionId ?? '';
  if (a.jsonBody) return `${a.status} with a JSON body (no stream)`;
  if (a.opens !== undefined) return `${a.status} with stream ${a.opens}`;
  return `${a.status}${a.reason ? ` ${a.reason}` : ''}${a.sessionId !== undefined ? ` (session ${a.sessionId})` : ''}`;
}

/** The step's answer: the candidate's (or the model's), with the model's expectation where they differ. */
export function stepAnswer(step: TraceStepData): string {
  const answer = answerText(step, step.answer);
  if (step.expected === undefined) return answer;
  return `${answer || 'nothing'}; model expects ${answerText(step, step.expected) || 'nothing'}`;
}

/** `N. action -> answer`, as traces print a step. */
export function stepLine(step: TraceStepData): string {
  const answer = stepAnswer(step);
  return `${step.index}. ${stepAction(step)}${answer ? ` -> ${answer}` : ''}`;
}

/** A divergence as one sentence: `deviates from the model at step N: model expects X, candidate answered Y`. */
export function divergenceText(step: TraceStepData): string {
  const expected = step.expected ? answerText(step, step.expected) || 'nothing' : '';
  return `deviates from the model at step ${step.index} (${stepAction(step)}): model expects ${expected}, candidate answered ${answerText(step, step.answer) || 'nothing'}`;
}

/** What each kind of short name in a trace stands for, by its letter. */
const nameMeanings: ReadonlyArray<[letter: string, meaning: string]> = [
  ['c', 'c1, c2...: tool calls, in the order the client made them (c1#2: notification 2 of c1; on the wire its label ends in -c1)'],
  ['q', 'q1, q2...: the JSON-RPC requests that made them'],
  ['r', "rN: a POST's response stream"],
  ['s', 'sN: the standalone GET stream'],
  ['l', 'lN: the legacy HTTP+SSE stream'],
];

/**
 * What the short names the steps use stand for (`c1` a tool call, `r1` a POST's response
 * stream...), one meaning per kind of name that occurs; empty when they use none. A stream's
 * number is its place among the streams its session opened.
 */
export function traceLegend(steps: Iterable<TraceStepData>): string[] {
  const used = new Set<string>();
  const note = (name: string | undefined) => {
    const kind = name === undefined ? undefined : /^([cqrsl])\d+$/.exec(name)?.[1];
    if (kind !== undefined) used.add(kind);
  };
  for (const step of steps) {
    note(step.stream);
    note(step.call);
    note(step.request);
    for (const answer of [step.answer, step.expected]) for (const frame of answer?.frames ?? []) note(frame.call);
  }
  const meanings = nameMeanings.filter(([letter]) => used.has(letter)).map(([, meaning]) => meaning);
  if (['r', 's', 'l'].some((letter) => used.has(letter))) meanings.push("a stream's N is its place among the streams its session opened, from 0");
  return meanings;
}
