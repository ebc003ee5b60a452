/**
 * Steps a session with the machine's own pure transition function, without an actor: the world
 * explored by the model and fast-check's in-process runs use this.
 */
import { createEmptyActor, type SnapshotFrom } from 'xstate';
import { memoization } from './memo.js';
import { sessionMachine } from './session-machine.js';
import type { SessionContext, SessionEvent, SessionInput } from './session-types.js';

type Snapshot = SnapshotFrom<typeof sessionMachine>;

/**
 * A session as a world holds it: the machine's state value and context, which is all a snapshot
 * of this machine carries (it has no children, no history states, no final state), as XState
 * persists one. The machine resolves it back to a snapshot to take a step. Exploration keeps tens
 * of thousands of sessions; a whole snapshot (its node list, tag set and empty child and history
 * records) would more than double each one.
 */
export interface SessionState {
  readonly value: Snapshot['value'];
  readonly context: Snapshot['context'];
}

/**
 * A stand-in actor scope, as xstate/graph builds one: the model's machines have no side effects
 * to run, so their pure `transition` needs nothing more. Shared by every pure stepper.
 */
function modelActorScope<T>(): T {
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

// Session states are never mutated, and the machine is pure: the same state and event always give
// the same next state, so exploration (which meets one session state under many client states)
// asks the machine once per (state, event) while the state is in the memo. The memo keeps the
// states stepped most recently, in two generations: exploration is depth-first, so the worlds
// that share a session state are mostly found close together. A memo of every state ever stepped
// runs the machine less (2% fewer times on the reference policy, a third fewer on seed-000) but
// holds every session state with its log; exploration takes about the same time either way.
const initial = new Map<SessionInput['policy'], Map<string, SessionState>>();
/** Source states per generation of the memo. */
const generation = 512;
let recent = new Map<SessionState, Map<string, SessionState>>();
let older = new Map<SessionState, Map<string, SessionState>>();

/** Empties the memo. `explore` calls it when done, so memo tables do not outlive an exploration. */
export function forgetSessionMemo(): void {
  initial.clear();
  recent = new Map();
  older = new Map();
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

function stateOf(snapshot: Snapshot): SessionState {
  return memoization.compactSessions ? { value: snapshot.value, context: snapshot.context } : snapshot;
}

/** One step of the machine, from a session state to the next. */
function transition(state: SessionState, event: SessionEvent<unknown>): SessionState {
  // A whole snapshot (`compactSessions` off) is stepped as it is.
  const snapshot = 'machine' in state ? (state as Snapshot) : sessionMachine.resolveState(state);
  return stateOf(sessionMachine.transition(snapshot, event, scope));
}

/** A fresh session, awaiting `initialize`. */
export function createSession(input: SessionInput): SessionState {
  if (!memoization.sessionTransitions) return stateOf(sessionMachine.getInitialSnapshot(scope, input));
  // By the policy object and the names (policies are values nobody mutates).
  let byName = initial.get(input.policy);
  if (!byName) initial.set(input.policy, (byName = new Map()));
  const key = `${input.sessionId}\u0000${input.tag}`;
  let state = byName.get(key);
  if (!state) {
    state = stateOf(sessionMachine.getInitialSnapshot(scope, input));
    byName.set(key, state);
  }
  return state;
}

/** The session after one event. */
export function stepSession<M>(state: SessionState, event: SessionEvent<M>): SessionState {
  if (!memoization.sessionTransitions) return transition(state, event as SessionEvent<unknown>);
  let byEvent = recent.get(state);
  if (!byEvent) {
    byEvent = older.get(state) ?? new Map<string, SessionState>();
    recent.set(state, byEvent);
    if (recent.size > generation) {
      older = recent;
      recent = new Map();
    }
  }
  const key = eventKey(event);
  let next = byEvent.get(key);
  if (!next) {
    next = transition(state, event as SessionEvent<unknown>);
    byEvent.set(key, next);
  }
  return next;
}

/** A session's context, typed with the world's message type. */
export function sessionContext<M>(state: SessionState): SessionContext<M> {
  return state.context as SessionContext<M>;
}
