/**
 * The fixed client scenarios: what the application calls, under which transport and server
 * policy, and which faults the proxy injects. They cover what the model's client world does not
 * derive (`model-scenarios.ts` derives the cuts: processed, in flight, undrained, and an inclusive
 * replay): a stream without priming, a refused resume, an expired session, a delayed result, a
 * cut legacy stream.
 */
import { reference, type Policy } from '../../model/policy.js';
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
 * The catalog, quickest first for a correct client (a check stops early with `failFast`). A
 * delayed frame is held three times the client's timeout.
 */
export function clientScenarios(timeoutMs: number): ClientScenario[] {
  return [
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
      name: 'delayed-result',
      summary: "a call's result is held past the client's timeout",
      transport: 'streamable',
      policy: reference,
      policyName: 'reference',
      faults: [{ kind: 'delay', on: { ...toolCall, nth: 1 }, frame: 3, ms: timeoutMs * 3 }],
      calls: [emit('delayed', 1)],
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
      name: 'no-priming-cut',
      summary: "priming events are withheld and a call's stream is cut before any frame: nothing to resume from",
      transport: 'streamable',
      policy: reference,
      policyName: 'reference',
      faults: [{ kind: 'withholdPriming' }, { kind: 'cut', on: { ...toolCall, nth: 1 }, frames: 0 }],
      calls: [emit('unprimed', 2)],
    },
  ];
}
