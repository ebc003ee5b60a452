/**
 * The client scenarios: what the application calls, under which transport and server policy, and
 * which faults the proxy injects. Each targets the client-relevant states of the model: a cut
 * after processed frames, a cut with a frame undrained (seed 000), an inclusive replay, a delayed
 * result, an expired session, a refused resume, a stream without priming, a cut legacy stream.
 */
import { reference, withKnob, type Policy } from '../../model/policy.js';
import type { Transport } from '../../model/transport.js';
import type { Fault } from './faults.js';

/** One application call: always a fixture `emit` with a label unique in the scenario. */
export interface ScenarioCall {
  name: 'emit';
  args: { label: string; count: number };
}

export interface ClientScenario {
  name: string;
  /** What it exercises, one sentence. */
  summary: string;
  transport: Transport;
  /** The reference server's policy (server knobs only matter). */
  policy: Policy;
  policyName: string;
  faults: Fault[];
  calls: ScenarioCall[];
}

const emit = (label: string, count: number): ScenarioCall => ({ name: 'emit', args: { label, count } });
const toolCall = { method: 'POST', path: '/mcp', rpc: 'tools/call' } as const;

/**
 * The catalog. `delayMs` is how long a delayed frame is held: longer than the client's timeout.
 */
export function clientScenarios(timeoutMs: number): ClientScenario[] {
  return [
    {
      name: 'cut-after-frames',
      summary: "a call's stream is cut after the priming event and one notification the application has; the client resumes",
      transport: 'streamable',
      policy: reference,
      policyName: 'reference',
      faults: [{ kind: 'cut', on: { ...toolCall, nth: 1 }, frames: 2 }],
      calls: [emit('cut', 3)],
    },
    {
      name: 'cut-undrained',
      summary: "a call's stream is cut in the same turn as its third frame is written: sent, parsed, not yet processed (seed 000)",
      transport: 'streamable',
      policy: reference,
      policyName: 'reference',
      faults: [{ kind: 'cut', on: { ...toolCall, nth: 1 }, frames: 3, undrained: true }],
      calls: [emit('undrained', 3)],
    },
    {
      name: 'inclusive-replay',
      summary: 'a server that replays from the cursor inclusive sends the cursor event again after a cut',
      transport: 'streamable',
      policy: withKnob(reference, 'replay', 'inclusive'),
      policyName: 'reference with replay=inclusive',
      faults: [{ kind: 'cut', on: { ...toolCall, nth: 1 }, frames: 2 }],
      calls: [emit('inclusive', 3)],
    },
    {
      name: 'no-priming-cut',
      summary: "priming events are withheld and a call's stream is cut before any frame: nothing to resume from",
      transport: 'streamable',
      policy: reference,
      policyName: 'reference',
      faults: [{ kind: 'withholdPriming' }, { kind: 'cut', on: { ...toolCall, nth: 1 }, frames: 0 }],
      calls: [emit('unprimed', 2)],
    },
    {
      name: 'resume-refused',
      summary: "a call's stream is cut after one notification and every resume is answered 404",
      transport: 'streamable',
      policy: reference,
      policyName: 'reference',
      faults: [
        { kind: 'cut', on: { ...toolCall, nth: 1 }, frames: 2 },
        { kind: 'answer', on: { method: 'GET', path: '/mcp', resume: true }, status: 404 },
      ],
      calls: [emit('refused', 2)],
    },
    {
      name: 'session-expired',
      summary: 'the session expires at the server after the first call; two more calls follow',
      transport: 'streamable',
      policy: reference,
      policyName: 'reference',
      faults: [{ kind: 'expire', after: { ...toolCall, nth: 1 } }],
      calls: [emit('before-expiry', 0), emit('at-expiry', 0), emit('after-expiry', 0)],
    },
    {
      name: 'delayed-result',
      summary: "a call's result is held past the client's timeout",
      transport: 'streamable',
      policy: reference,
      policyName: 'reference',
      faults: [{ kind: 'delay', on: { ...toolCall, nth: 1 }, frame: 3, ms: timeoutMs * 3 }],
      calls: [emit('delayed', 1)],
    },
    {
      name: 'legacy-cut',
      summary: 'the legacy stream is cut during a call, after one notification; the legacy session is answered 404 at /mcp',
      transport: 'sse',
      policy: reference,
      policyName: 'reference',
      faults: [
        { kind: 'cut', on: { method: 'GET', path: '/sse', nth: 1 }, frames: 3 },
        { kind: 'answer', on: { path: '/mcp', legacySession: true }, status: 404 },
      ],
      calls: [emit('legacy', 3)],
    },
  ];
}
