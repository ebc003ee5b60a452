/**
 * Plumbing of the mutant tests: a reference server (mutated or not) and checking clients that are
 * closed after each test, bounded reads, and a compact rendering of frames (`a2` is notification 2
 * of label `a`, `result a` the result of the call labelled `a`, `priming` an event without data).
 */
import { afterEach, expect } from 'vitest';
import { CheckClient, type Answer, type CheckClientOptions, type Frame, type SseStream } from '../../src/wire/index.js';
import { createReferenceServer, type Mutation, type ReferenceServer } from '../../src/reference/index.js';
import type { JsonRpcMessage } from '../../properties/history.js';
import { fixtureNotification, isResponse, toolJson } from '../../properties/messages.js';

/** Bound of a wait for something that should arrive. */
export const ARRIVES_MS = 3000;
/** How long to listen to a stream that should stay quiet (an outcome, never a duration assertion). */
export const QUIET_MS = 300;

const cleanups: Array<() => unknown> = [];

/** Closes every server and client of the test, newest first. */
export function useCleanup(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
  });
}

/** The two servers a scenario runs against. */
export type Variant = 'reference' | 'mutant';

/** Starts the reference server, mutated by `mutation` when given; closed after the test. */
export async function serve(mutation?: Mutation, policy = 'reference'): Promise<ReferenceServer> {
  const server = await createReferenceServer(mutation ? { policy, mutation } : { policy });
  cleanups.push(() => server.close());
  return server;
}

/** Starts the server of `variant`: the plain reference, or the one `mutation()` distorts. */
export function serveVariant(variant: Variant, mutation: () => Mutation): Promise<ReferenceServer> {
  return serve(variant === 'mutant' ? mutation() : undefined);
}

/** A checking client on `server` (cursor on receive, no dedup: it shows the wire as it is). */
export function client(server: ReferenceServer, options: Partial<CheckClientOptions> = {}): CheckClient {
  const c = new CheckClient({ baseUrl: server.url, timeoutMs: ARRIVES_MS, ...options });
  cleanups.push(() => c.close());
  return c;
}

/** A client with an initialized session under `transport`. */
export async function session(
  server: ReferenceServer,
  transport: 'streamable' | 'sse' = 'streamable',
  options: Partial<CheckClientOptions> = {},
): Promise<CheckClient> {
  const c = client(server, options);
  const init = await c.initialize({ transport });
  expect(init.ok, init.ok ? '' : init.reason).toBe(true);
  return c;
}

/** The stream of an answer, or a test failure saying what came instead. */
export function stream(answer: Answer): SseStream {
  if (answer.kind !== 'stream') throw new Error(`expected an event stream, got ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.stream;
}

/** A message in a few characters (see the module comment); undefined for anything else. */
export function brief(message: unknown): string | undefined {
  const m = message as JsonRpcMessage | undefined;
  const note = fixtureNotification(m);
  if (note) return `${note.label}${note.seq}`;
  if (isResponse(m)) {
    const result = toolJson(m);
    return typeof result?.label === 'string' ? `result ${result.label}` : `response ${JSON.stringify(m.id)}`;
  }
  return undefined;
}

/** A frame in a few characters (see the module comment). */
export function show(frame: Frame): string {
  return brief(frame.message) ?? (frame.data === '' ? 'priming' : frame.event);
}

/** Receives `n` frames (each bounded); fails the test on anything else. */
export async function receive(s: SseStream, n: number): Promise<Frame[]> {
  const frames: Frame[] = [];
  while (frames.length < n) {
    const r = await s.receive(ARRIVES_MS);
    if (r.kind !== 'frame') throw new Error(`expected frame ${frames.length + 1} of ${n}, got ${JSON.stringify(r)}`);
    frames.push(r.frame);
  }
  return frames;
}

/** Receives until a frame satisfies `pred` (each receive bounded); returns the frames, that one last. */
export async function receiveUntil(s: SseStream, pred: (f: Frame) => boolean): Promise<Frame[]> {
  const frames: Frame[] = [];
  for (;;) {
    const r = await s.receive(ARRIVES_MS);
    if (r.kind !== 'frame') throw new Error(`expected a frame, got ${JSON.stringify(r)} after ${frames.map(show).join(', ')}`);
    frames.push(r.frame);
    if (pred(r.frame)) return frames;
  }
}

/** What a stream carried until it ended, or until it stayed quiet for `quietMs`. */
export interface Carried {
  frames: string[];
  /** `end`: the server ended the body; `open`: still open, nothing more within `quietMs`. */
  stream: 'end' | 'open';
}

/** Reads `s` to its end, or until nothing arrives for `quietMs`. */
export async function carried(s: SseStream, quietMs = QUIET_MS): Promise<Carried> {
  const frames: string[] = [];
  for (;;) {
    const r = await s.receive(quietMs);
    if (r.kind === 'frame') {
      frames.push(show(r.frame));
      continue;
    }
    if (r.kind === 'end') return { frames, stream: 'end' };
    if (r.kind === 'timeout') return { frames, stream: 'open' };
    throw new Error(`stream failed: ${JSON.stringify(r)} after ${frames.join(', ')}`);
  }
}

/**
 * A POST stream of `emit {label, count}`: receives it up to and including notification `upTo`
 * (priming first, for a 2025-11-25 client), then drops the connection. The returned stream's
 * cursor is that notification's event ID.
 */
export async function dropAfter(c: CheckClient, label: string, count: number, upTo: number): Promise<SseStream> {
  const call = await c.callTool('emit', { label, count });
  const s = stream(call.answer);
  await receiveUntil(s, (f) => show(f) === `${label}${upTo}`);
  s.drop();
  return s;
}

/** Resolves once `pred()` holds (checked every few ms); rejects after `ms`. */
export async function until(pred: () => boolean, what: string, ms = ARRIVES_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
