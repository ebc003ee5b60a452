/**
 * Policies: the seeds' conditions as knobs. A policy is one value per knob; the server's knobs
 * are read by the session machine, the client's by the client functions of the world.
 */

/** How event IDs are allocated across the two listeners. */
export type EventIdAllocation = 'shared' | 'perTransport';
/** Which events a replay starts with. */
export type ReplayContract = 'exclusive' | 'inclusive';
/** What the server answers to a `Last-Event-ID` it cannot place. */
export type UnknownCursorAnswer = 'reject' | 'emptyStream';
/** What the resume handler does with a cursor minted by the other transport's listener (per-transport IDs only). */
export type CrossTransportCursor = 'unknown' | 'translate';
/** Which capabilities a session holds after it is resumed under the other transport. */
export type CapabilitiesOnMigration = 'negotiated' | 'defaultProfile';
/** When the client's cursor moves to a frame's ID. */
export type CursorAdvance = 'onReceive' | 'onDrain';
/** Whether a session idle past a TTL is ended by the server (production servers bound their sessions). */
export type SessionExpiry = 'never' | 'idleTtl';
/**
 * How much of a session's log the server keeps. `bounded`: the oldest events are dropped and a
 * cursor naming one is answered as an unknown cursor is; `boundedPartialReplay`: a cursor naming
 * a dropped event replays what is left of its stream, a replay with a gap (a broken retention).
 */
export type LogRetention = 'unbounded' | 'bounded' | 'boundedPartialReplay';

/** The knobs the server side reads. */
export interface ServerPolicy {
  /** `shared`: one namespace, a cursor resolves whichever listener minted it (seed 000, cond. 1). */
  eventIds: EventIdAllocation;
  /** A session established under one transport is accepted at the other's endpoint (seed 000 cond. 2, seed 003 cond. 1-2). */
  bridging: boolean;
  /** `exclusive`: replay events after the cursor (the spec's words); `inclusive`: from the cursor on. */
  replay: ReplayContract;
  /** `emptyStream`: 200 with nothing on it (seed 003). */
  unknownCursor: UnknownCursorAnswer;
  /**
   * `unknown`: a cursor the other listener minted is not placed, and is answered as an unknown
   * cursor is; `translate`: the handler maps it to the event it names in the session's one
   * ordered log and replays that stream (seed 003's "translating the cursor"). Moot under shared IDs.
   */
  crossTransportCursor: CrossTransportCursor;
  /** `defaultProfile`: a cross-transport resume re-derives capabilities from a default (seed 003). */
  capabilitiesOnMigration: CapabilitiesOnMigration;
  /** `idleTtl`: a session with no connection attached may expire, and then answers as a terminated one (404). */
  sessionExpiry: SessionExpiry;
  /** `bounded`: the server may drop a session's oldest events (see {@link LogRetention}). */
  logRetention: LogRetention;
}

/** The knobs the client side reads. */
export interface ClientPolicy {
  /** `onReceive`: EventSource-style, the cursor moves when a frame is parsed (a browser EventSource; not the official SDK client, whose token moves as it hands the message on: test/client/sdk-cursor.test.ts). */
  cursorAdvance: CursorAdvance;
  /** Drop a frame whose event ID was already drained. */
  dedup: boolean;
  /** Re-issue a request whose response never came (a new request ID, the same tool call). */
  retryOnTimeout: boolean;
  /** After a re-initialization, re-issue in the new session a tool call the old session failed (404 or DELETE). */
  retryAfterReinitialize: boolean;
}

/** One value per knob. */
export interface Policy {
  server: ServerPolicy;
  client: ClientPolicy;
}

/** The knob names and their values, in the order docs and matrices list them. */
export const knobs = {
  eventIds: ['shared', 'perTransport'],
  bridging: [true, false],
  replay: ['exclusive', 'inclusive'],
  unknownCursor: ['reject', 'emptyStream'],
  crossTransportCursor: ['unknown', 'translate'],
  capabilitiesOnMigration: ['negotiated', 'defaultProfile'],
  sessionExpiry: ['never', 'idleTtl'],
  logRetention: ['unbounded', 'bounded', 'boundedPartialReplay'],
  cursorAdvance: ['onReceive', 'onDrain'],
  dedup: [true, false],
  retryOnTimeout: [true, false],
  retryAfterReinitialize: [false, true],
} as const;

export type KnobName = keyof typeof knobs;
export type KnobValue<K extends KnobName> = (typeof knobs)[K][number];

const serverKnobs = [
  'eventIds',
  'bridging',
  'replay',
  'unknownCursor',
  'crossTransportCursor',
  'capabilitiesOnMigration',
  'sessionExpiry',
  'logRetention',
] as const;

/** Reads one knob of a policy. */
export function knob<K extends KnobName>(policy: Policy, name: K): KnobValue<K> {
  const side = (serverKnobs as readonly string[]).includes(name) ? policy.server : policy.client;
  return (side as unknown as Record<string, KnobValue<K>>)[name];
}

/** A copy of `policy` with one knob changed. */
export function withKnob<K extends KnobName>(policy: Policy, name: K, value: KnobValue<K>): Policy {
  if ((serverKnobs as readonly string[]).includes(name)) {
    return { server: { ...policy.server, [name]: value }, client: { ...policy.client } };
  }
  return { server: { ...policy.server }, client: { ...policy.client, [name]: value } };
}

/**
 * The policy this project argues is correct: event IDs namespaced by transport, no bridging
 * (a session is resumed only under the transport that issued it), replay after the cursor as the
 * spec says, unknown cursors rejected with 404, and a client whose cursor only moves once the
 * application has processed the frame. Dedup and retry are on, as real clients have them:
 * the reference must be correct with them, not because of their absence.
 */
export const reference: Policy = {
  server: {
    eventIds: 'perTransport',
    bridging: false,
    replay: 'exclusive',
    unknownCursor: 'reject',
    crossTransportCursor: 'unknown',
    capabilitiesOnMigration: 'negotiated',
    sessionExpiry: 'never',
    logRetention: 'unbounded',
  },
  client: { cursorAdvance: 'onDrain', dedup: true, retryOnTimeout: true, retryAfterReinitialize: false },
};

/**
 * Seed 000: one event-ID allocator for both listeners, the legacy session bridged into `/mcp`,
 * replay strictly after the cursor, an EventSource-style client that advances on receive, no
 * dedup, and a client that retries a timed-out tool call.
 */
export const seed000: Policy = {
  server: {
    eventIds: 'shared',
    bridging: true,
    replay: 'exclusive',
    unknownCursor: 'reject',
    crossTransportCursor: 'unknown',
    capabilitiesOnMigration: 'negotiated',
    sessionExpiry: 'never',
    logRetention: 'unbounded',
  },
  client: { cursorAdvance: 'onReceive', dedup: false, retryOnTimeout: true, retryAfterReinitialize: false },
};

/**
 * Seed 003: one session store for both transports (bridging), per-transport event logs, an
 * unknown cursor answered 200 with an empty stream, and capabilities re-derived from a default
 * profile when the session shows up under the other transport.
 */
export const seed003: Policy = {
  server: {
    eventIds: 'perTransport',
    bridging: true,
    replay: 'exclusive',
    unknownCursor: 'emptyStream',
    crossTransportCursor: 'unknown',
    capabilitiesOnMigration: 'defaultProfile',
    sessionExpiry: 'never',
    logRetention: 'unbounded',
  },
  client: { cursorAdvance: 'onReceive', dedup: false, retryOnTimeout: false, retryAfterReinitialize: false },
};

/**
 * Mutants: one knob value (or the smallest combination) that breaks a property, each named for
 * what it changes from the reference. Exploration must find a violation in every one.
 */
export const mutants: Readonly<Record<string, Policy>> = {
  'bridging-shared-ids': withKnob(withKnob(reference, 'bridging', true), 'eventIds', 'shared'),
  'unknown-cursor-empty-stream': withKnob(reference, 'unknownCursor', 'emptyStream'),
  'default-capabilities': withKnob(withKnob(withKnob(reference, 'bridging', true), 'eventIds', 'shared'), 'capabilitiesOnMigration', 'defaultProfile'),
  'inclusive-replay-no-dedup': withKnob(withKnob(reference, 'replay', 'inclusive'), 'dedup', false),
  'cursor-on-receive': withKnob(reference, 'cursorAdvance', 'onReceive'),
  'retention-partial-replay': withKnob(reference, 'logRetention', 'boundedPartialReplay'),
};

/**
 * Variants that change a knob and stay correct: the model finds no violation in them. They show
 * which of the seeds' mitigations are sufficient on their own and which are not needed.
 */
export const safeVariants: Readonly<Record<string, Policy>> = {
  'shared-event-ids': withKnob(reference, 'eventIds', 'shared'),
  bridging: withKnob(reference, 'bridging', true),
  'inclusive-replay': withKnob(reference, 'replay', 'inclusive'),
  'no-dedup': withKnob(reference, 'dedup', false),
  'idle-ttl': withKnob(reference, 'sessionExpiry', 'idleTtl'),
  'bounded-log': withKnob(reference, 'logRetention', 'bounded'),
};

/** Every named policy: the reference, the two incidents, the mutants and the safe variants. */
export const policies: Readonly<Record<string, Policy>> = {
  reference,
  'seed-000': seed000,
  'seed-003': seed003,
  ...mutants,
  ...safeVariants,
};

/** Looks a policy up by name, or explains which names exist. */
export function policyByName(name: string): Policy {
  const policy = policies[name];
  if (!policy) {
    throw new RangeError(`unknown policy "${name}"; known policies: ${Object.keys(policies).join(', ')}`);
  }
  return policy;
}

/** A one-line rendering, e.g. `eventIds=shared bridging=on replay=exclusive ...`. */
export function describePolicy(policy: Policy): string {
  return (Object.keys(knobs) as KnobName[])
    .map((name) => {
      const value = knob(policy, name);
      return `${name}=${value === true ? 'on' : value === false ? 'off' : value}`;
    })
    .join(' ');
}
