/**
 * Code mutant `rerun-on-resume`: a tool call answered while its (legacy or standalone) stream had
 * no connection is, when a resume replays its result, run again instead of replayed: the replay carries the re-run's
 * result (same event ID, same place), so the call's side effect has run twice. Notifications
 * replay as stored: nothing is lost, duplicated or reordered, and every request is answered.
 *
 * Only results never written to a connection are re-run, and each once (later replays carry the
 * same re-run result): an event ID never reaches the client with two contents. The second run is
 * the mutation's own count per label (the server's execution counters are not a hook's to touch).
 */
import { emitResult } from '../../fixtures/core.js';
import type { JsonRpcMessage } from '../../../properties/history.js';
import { isResponse, toolJson } from '../../../properties/messages.js';
import { served } from '../../reference/session.js';
import type { Mutation } from '../../reference/index.js';
import { codeMutant } from './mutant.js';

export function rerunOnResume(): Mutation {
  /** Machine IDs of responses logged while their stream had no connection: never written. */
  const unwritten = new Set<string>();
  /** Per session, the context of the step logging now, and the streams that existed before that step. */
  const steps = new Map<string, { context: object; before: Set<string> }>();
  /** The re-run's result, by the machine ID of the response it replaces. */
  const reran = new Map<string, JsonRpcMessage>();
  /** Executions so far of each label's tool, as this server's re-runs have counted them. */
  const executions = new Map<string, number>();
  return {
    name: 'rerun-on-resume',
    eventIds: {
      // The wire IDs stay the machine's; this only notes which responses no connection carried.
      // A POST's response stream gets its connection around the steps that log its events, so its
      // `connected` says nothing of what was written: only the long-lived streams (legacy,
      // standalone), existing before the step and without a connection now, were surely not written to.
      toWire: (event, context) => {
        let step = steps.get(context.sessionId);
        if (step?.context !== context) {
          step = { context, before: new Set(step?.context === undefined ? [] : (step.context as typeof context).streams.map((s) => s.id)) };
          steps.set(context.sessionId, step);
        }
        const stream = context.streams.find((s) => s.id === event.stream);
        const unheard = stream !== undefined && stream.kind !== 'request' && !stream.connected && step.before.has(event.stream);
        if (unheard && isResponse(event.message as JsonRpcMessage | undefined)) unwritten.add(event.id);
        return event.id;
      },
    },
    resume: ({ reply }) => {
      if (!served(reply) || reply.stream === undefined) return reply;
      const frames = reply.frames.map((frame) => {
        if (!unwritten.has(frame.id)) return frame;
        let message = reran.get(frame.id);
        if (message === undefined) {
          const stored = frame.message as JsonRpcMessage;
          const result = toolJson(stored);
          if (typeof result?.label !== 'string' || typeof result.executions !== 'number') return frame;
          const ran = (executions.get(result.label) ?? result.executions) + 1;
          executions.set(result.label, ran);
          reran.set(frame.id, (message = { ...stored, result: emitResult(result.label, ran) }));
        }
        return { ...frame, message };
      });
      return { ...reply, frames };
    },
  };
}

export const mutant = codeMutant(
  'rerun-on-resume',
  'A tool call answered while its stream was down is run again when a resume replays its result (the new result under the stored event ID): the side effect runs twice, nothing is lost or stalls',
  ['at-most-once-effect'],
  rerunOnResume,
);

export default mutant.start;
