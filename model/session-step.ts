/**
 * Steps a session snapshot with the machine's own pure transition function, without an actor:
 * the world explored by the model and fast-check's in-process runs use this.
 */
import { createEmptyActor, type SnapshotFrom } from 'xstate';
import { sessionMachine } from './session-machine.js';
import type { SessionContext, SessionEvent, SessionInput } from './session-types.js';

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/**
 * A stand-in actor scope, as xstate/graph builds one: the model's machines have no side effects
 * to run, so their pure `transition` needs nothing more. Shared by every pure stepper.
 */
export function modelActorScope<T>(): T {
  const emptyActor = createEmptyActor();
  return {
    self: emptyActor,
    logger: () => {},
    id: '',
    sessionId: 'model',
    defer: () => {},
    system: emptyActor.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as T;
}

const scope = modelActorScope<Parameters<typeof sessionMachine.transition>[2]>();

/** A fresh session, awaiting `initialize`. */
export function createSession(input: SessionInput): SessionSnapshot {
  return sessionMachine.getInitialSnapshot(scope, input);
}

/** The snapshot after one event. */
export function stepSession<M>(snapshot: SessionSnapshot, event: SessionEvent<M>): SessionSnapshot {
  return sessionMachine.transition(snapshot, event as SessionEvent<unknown>, scope);
}

/** A session's context, typed with the world's message type. */
export function sessionContext<M>(snapshot: SessionSnapshot): SessionContext<M> {
  return snapshot.context as SessionContext<M>;
}
