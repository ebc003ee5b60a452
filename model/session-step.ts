/**
 * Steps a session snapshot with the machine's own pure transition function, without an actor:
 * the world explored by the model and fast-check's in-process runs use this.
 */
import { createEmptyActor, type SnapshotFrom } from 'xstate';
import { memoization } from './memo.js';
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

// Snapshots are never mutated, and the machine is pure: the same snapshot and event always give
// the same next snapshot, so exploration (which meets one session state under many client
// states) asks the machine once per (snapshot, event).
const initial = new Map<SessionInput['policy'], Map<string, SessionSnapshot>>();
const transitions = new WeakMap<SessionSnapshot, Map<string, SessionSnapshot>>();

/**
 * Drops the memo's roots (the initial snapshots): every snapshot reached from them becomes
 * collectable once no world holds it. `explore` calls it when done, so memo tables do not
 * outlive an exploration.
 */
export function forgetSessionMemo(): void {
  initial.clear();
}

// Capabilities are frozen objects a world reuses: each is written out once.
const capabilityKeys = new WeakMap<object, string>();

function capabilitiesKey(capabilities: object): string {
  let key = capabilityKeys.get(capabilities);
  if (key === undefined) capabilityKeys.set(capabilities, (key = JSON.stringify(capabilities)));
  return key;
}

/** A short exact key for an event: every event by its fields, a request (rare, with messages of any type) as JSON. */
function eventKey<M>(event: SessionEvent<M>): string {
  switch (event.type) {
    case 'SEND':
      return `S${event.stream}`;
    case 'CONNECTION_LOST':
      return `L${event.stream}`;
    case 'RESUME':
      return `R${event.transport}|${event.lastEventId}`;
    case 'INITIALIZE':
      return `I${event.transport}|${event.protocolVersion}|${capabilitiesKey(event.capabilities)}`;
    case 'OPEN_STANDALONE':
    case 'NOTIFY':
    case 'DELETE':
      return `${event.type}|${event.transport}`;
    case 'OPEN_LEGACY':
    case 'EXPIRE':
    case 'TRIM':
      return event.type;
    case 'REQUEST':
      return JSON.stringify(event);
  }
}

/** A fresh session, awaiting `initialize`. */
export function createSession(input: SessionInput): SessionSnapshot {
  if (!memoization.sessionTransitions) return sessionMachine.getInitialSnapshot(scope, input);
  // By the policy object and the names (policies are values nobody mutates).
  let byName = initial.get(input.policy);
  if (!byName) initial.set(input.policy, (byName = new Map()));
  const key = `${input.sessionId}\u0000${input.tag}`;
  let snapshot = byName.get(key);
  if (!snapshot) {
    snapshot = sessionMachine.getInitialSnapshot(scope, input);
    byName.set(key, snapshot);
  }
  return snapshot;
}

/** The snapshot after one event. */
export function stepSession<M>(snapshot: SessionSnapshot, event: SessionEvent<M>): SessionSnapshot {
  if (!memoization.sessionTransitions) return sessionMachine.transition(snapshot, event as SessionEvent<unknown>, scope);
  let byEvent = transitions.get(snapshot);
  if (!byEvent) {
    byEvent = new Map();
    transitions.set(snapshot, byEvent);
  }
  const key = eventKey(event);
  let next = byEvent.get(key);
  if (!next) {
    next = sessionMachine.transition(snapshot, event as SessionEvent<unknown>, scope);
    byEvent.set(key, next);
  }
  return next;
}

/** A session's context, typed with the world's message type. */
export function sessionContext<M>(snapshot: SessionSnapshot): SessionContext<M> {
  return snapshot.context as SessionContext<M>;
}
