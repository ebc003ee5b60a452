/**
 * docs/model.md: the session machine as a Mermaid state diagram and a decision table, both read
 * off the machine's definition; the policies, the world's vocabulary and bounds, the properties,
 * and what exploration finds for every named policy.
 */
import { defaultBounds, maxBounds, type Bounds } from '../../model/bounds.js';
import { explore } from '../../model/explore.js';
import { invariants } from '../../model/invariants.js';
import { knob, knobs, mutants, policies, safeVariants, type KnobName } from '../../model/policy.js';
import { historyOnlyProperties, propertyIds } from '../../model/property-ids.js';
import { definitions } from '../../properties/definitions.js';
import { sessionMachine } from '../../model/session-machine.js';
import { fence, generatedBanner, table } from './markdown.js';

interface Branch {
  state: string;
  event: string;
  guard: string | null;
  target: string | null;
  description: string;
  /** What the transition answers, in a word or two (`200`, `404 unknown Last-Event-ID`): its `meta.answer`. */
  answer: string;
}

/** Every transition of the session machine, in the order the machine tries them. */
export function sessionBranches(): Branch[] {
  const branches: Branch[] = [];
  for (const [state, node] of Object.entries(sessionMachine.root.states)) {
    for (const [event, transitions] of node.transitions) {
      for (const t of transitions) {
        const guard = typeof t.guard === 'string' ? t.guard : t.guard ? '(inline guard)' : null;
        const answer = (t.meta as { answer?: unknown } | undefined)?.answer;
        if (typeof answer !== 'string') throw new Error(`the session machine's ${state} --${event}--> transition has no meta.answer (the diagram's label)`);
        branches.push({ state, event, guard, target: t.target?.[0]?.key ?? null, description: t.description ?? '', answer });
      }
    }
  }
  return branches;
}

/** Text after a label's colon must not hold another: Mermaid's state grammar ends the label there. */
function label(text: string): string {
  return text.replace(/:/g, ',').replace(/;/g, ',');
}

/**
 * The Mermaid state diagram: one edge per transition (self-loops included), labelled with the
 * event, its guard and the status it answers; wildcard refusals as notes.
 */
export function mermaidStateDiagram(): string {
  const lines = ['stateDiagram-v2', `  [*] --> ${sessionMachine.root.initial?.target[0]?.key}`];
  for (const b of sessionBranches()) {
    if (b.event === '*') {
      lines.push(`  note right of ${b.state}: any other event, ${label(b.description)}`);
      continue;
    }
    lines.push(`  ${b.state} --> ${b.target ?? b.state}: ${b.event}${b.guard ? ` [${b.guard}]` : ''} ${label(b.answer)}`);
  }
  return lines.join('\n');
}

const eventMeaning: Record<string, string> = {
  OPEN_LEGACY: '`GET /sse`: open the legacy stream (before initialize)',
  INITIALIZE: '`initialize` (POST /mcp, or POST /messages under legacy SSE)',
  OPEN_STANDALONE: '`GET /mcp` without `Last-Event-ID`',
  NOTIFY: 'a client notification or response (POST)',
  REQUEST: 'a client request (POST): ping, tools/list, tools/call',
  SEND: 'the server writes the next queued message of a stream',
  CONNECTION_LOST: "a stream's connection closed",
  RESUME: '`GET` with `Last-Event-ID` (and the session ID) at either endpoint',
  DELETE: '`DELETE /mcp`',
  '*': 'anything else',
};

function show(value: unknown): string {
  return value === true ? 'on' : value === false ? 'off' : String(value);
}

function boundsTable(): string {
  const notes: Record<keyof Bounds, string> = {
    calls: 'tool calls the client issues',
    notifications: 'notifications per call, before its result',
    drops: 'connections the client may sever',
    resumes: 'resume attempts, migrations included',
    reinitializes: 'new sessions after the first',
    retries: 're-issues of a timed-out call',
    deletes: 'DELETEs of a session',
    migrations: 'resumes may go to the other transport (0/1)',
    foreignCursors: 'resumes may present a garbage or stale cursor (0/1)',
    moves: "a legacy client may POST a call at /mcp with its session's ID and no cursor (0/1)",
    trims: 'events a bounded log may drop per session (retention policies only)',
    unsolicited: 'calls that may be emit_unsolicited (standalone stream)',
    inFlight: 'frames in flight per connection',
    undrained: 'frames received but not drained per stream',
    unclean: 'drops may lose frames (0: clean drops only)',
  };
  return table(
    ['bound', 'default', 'max', 'meaning'],
    (Object.keys(defaultBounds) as (keyof Bounds)[]).map((k) => [k, String(defaultBounds[k]), String(maxBounds[k]), notes[k]]),
  );
}

/**
 * Safe variants that explore exactly the reference's states at `bounds` (the matrix says nothing of
 * them there), each explored again with a cursorless move (`moves=1`), where bridging can differ:
 * `[name, states, reference's states, invariants broken]`.
 */
export function vacuousVariants(bounds: Bounds): { names: string[]; withMove: Array<[string, number, number, string[]]> } {
  const referenceStates = explore({ policy: policies.reference!, bounds }).states;
  const names = Object.keys(safeVariants).filter((name) => explore({ policy: safeVariants[name]!, bounds }).states === referenceStates);
  const moved: Bounds = { ...bounds, moves: 1 };
  const movedReference = explore({ policy: policies.reference!, bounds: moved }).states;
  const withMove = names.map((name): [string, number, number, string[]] => {
    const result = explore({ policy: safeVariants[name]!, bounds: moved });
    return [name, result.states, movedReference, result.violations.map((v) => `${v.property} (${v.path.length})`)];
  });
  return { names, withMove };
}

function vacuousSection(bounds: Bounds): string[] {
  const { names, withMove } = vacuousVariants(bounds);
  if (names.length === 0) return [];
  return [
    `Safe variants that explore exactly the reference's states at these bounds hold there vacuously: ${names.map((n) => `\`${n}\``).join(', ')}. Each again with a cursorless move (\`moves=1\`: a legacy client presents its session at \`/mcp\` with no cursor, where bridging answers):`,
    '',
    table(
      ['policy', 'states with moves=1', "reference's states", 'invariants broken'],
      withMove.map(([name, states, reference, broken]) => [
        name,
        String(states),
        String(reference),
        broken.length > 0 ? broken.join(', ') : states === reference ? "none (still exactly the reference's states: vacuous here too)" : 'none',
      ]),
    ),
    '',
  ];
}

/** The bounds every named policy is explored at for the matrix (README's findings table reads the model there too). */
export const matrixBounds: Bounds = { ...defaultBounds, calls: 2, notifications: 1, drops: 1, resumes: 1 };

/** The whole of docs/model.md. */
export function modelDoc(): string {
  const names = Object.keys(policies);
  const knobNames = Object.keys(knobs) as KnobName[];
  const reference = explore({ policy: policies.reference!, bounds: defaultBounds });
  const checked = propertyIds.filter((id) => id in invariants);
  const matrixRows = names.map((name) => {
    const result = explore({ policy: policies[name]!, bounds: matrixBounds });
    return [
      name,
      String(result.states),
      ...checked.map((id) => {
        const v = result.violations.find((x) => x.property === id);
        return v ? `**fails** (${v.path.length})` : 'holds';
      }),
    ];
  });
  const kind = (name: string) =>
    name === 'reference' ? 'reference' : name.startsWith('seed') ? 'incident' : name in mutants ? 'mutant' : name in safeVariants ? 'safe variant' : '';

  return [
    generatedBanner('scripts/docs.ts'),
    '',
    '# The model',
    '',
    'The specification is an XState v5 machine for one server-side session (`model/session-machine.ts`). The reference server runs one actor of it per session; exploration steps it with its own pure transition function inside a bounded world of one server, the wire and one client. Everything below is read off the code.',
    '',
    '## The session machine',
    '',
    fence('mermaid', mermaidStateDiagram()),
    '',
    'Each event is tried against its transitions in order; the first whose guard holds answers. Guards read the session and the server policy.',
    '',
    table(
      ['state', 'event', 'meaning', 'guard', 'answer'],
      sessionBranches().map((b) => [
        b.state,
        b.event,
        eventMeaning[b.event] ?? '',
        b.guard ?? '(otherwise)',
        `${b.description}${b.target && b.target !== b.state ? ` → ${b.target}` : ''}`,
      ]),
    ),
    '',
    '## Policies',
    '',
    'A policy is one value per knob. The server reads the first six, the client the last four.',
    '',
    table(
      ['policy', 'kind', ...knobNames],
      names.map((name) => [name, kind(name), ...knobNames.map((k) => show(knob(policies[name]!, k)))]),
    ),
    '',
    '## The world',
    '',
    "One server (its sessions and the tools' side effects), the wire (frames in flight per connection) and one client (its session, transport, per-stream cursor, received-but-undrained frames, drained events and pending requests). Its steps: `INITIALIZE` (over either transport), `CALL` (emit or emit_unsolicited), `SEND`, `RECEIVE`, `DRAIN`, `DROP` (clean or unclean: what was in flight or undrained is lost on the client side), `RESUME` (same transport or migration; own, garbage or stale cursor), `TIMEOUT` (only when nothing can arrive; retries if the client does), `DELETE`. A 404 sends the client to re-initialize. States are keyed up to the numbering of event IDs (`model/world-key.ts`), so interleavings that differ only in numbering are one state; under bounded log retention, which drops the oldest event across streams, the key also keeps the send order of the events it may still drop.",
    '',
    boundsTable(),
    '',
    '## Properties',
    '',
    table(
      ['id', 'statement', 'model invariant'],
      propertyIds.map((id) => [`\`${id}\``, definitions[id].statement, historyOnlyProperties.includes(id) ? 'no (real histories only)' : 'yes']),
    ),
    '',
    '## What exploration finds',
    '',
    `Reference at the default bounds: ${reference.states} states, ${reference.transitions} transitions, ${reference.violations.length === 0 ? 'no invariant violated' : `violations: ${reference.violations.map((v) => v.property).join(', ')}`}.`,
    '',
    'Every named policy at bounds `calls=2,notifications=1,drops=1,resumes=1` (others default). A failing cell gives the length of the shortest trace; `mcp-resume-spec explore --policy NAME` prints it.',
    '',
    table(['policy', 'states', ...checked], matrixRows),
    '',
    ...vacuousSection(matrixBounds),
  ].join('\n');
}
