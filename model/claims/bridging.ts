/**
 * "Bridging alone is safe" (the `bridging` safe variant), re-judged on a world where a legacy
 * client moves its session to `/mcp` without a cursor: its next call is POSTed there with the
 * session's ID. Without that step the variant explores exactly the reference's states, and the
 * verdict would say nothing about bridging.
 */
import { explore } from '../explore.js';
import { reference, safeVariants, type Policy } from '../policy.js';
import { sessionContext } from '../session-step.js';
import type { World, WorldMessage } from '../world-types.js';
import { grade, judgementOf, yesNo, type Claim, type FoundTrace } from './claim.js';
import { ruleBounds } from './seed-003.js';
import { consequences } from './signatures.js';

/** The rule's bounds with two calls, so a call can be pending on the legacy stream when the next one moves. */
export const bridgingBounds = { ...ruleBounds, calls: 2, moves: 1 };

/** A session established under legacy SSE answered, at `/mcp`, a call POSTed there with its ID and no cursor. */
function servesMovedCall(world: World): boolean {
  return world.sessions.some((snapshot, index) => {
    const c = sessionContext<WorldMessage>(snapshot);
    if (c.transport !== 'sse') return false;
    const streamable = new Set(c.streams.filter((s) => s.kind === 'request' && s.transport === 'streamable').map((s) => s.id));
    return world.client.requests.some((r) => r.session === index && r.status === 'answered' && streamable.has(r.stream));
  });
}

/** A cursorless move answered 404, and the client re-initialized over streamable HTTP and got a call answered. */
function recoversFromRefusedMove(world: World): boolean {
  const first = world.sessions[0];
  if (!first || world.client.session < 1) return false;
  const refused = sessionContext<WorldMessage>(first).transport === 'sse' && world.client.requests.some((r) => r.session === 0 && r.status === 'failed');
  return refused && world.client.transport === 'streamable' && world.client.requests.some((r) => r.session === world.client.session && r.status === 'answered');
}

const bridging = safeVariants.bridging!;

const rows: Array<[string, Policy, number]> = [
  ['reference', reference, 0],
  ['bridging', bridging, 0],
  ['reference', reference, 1],
  ['bridging', bridging, 1],
];

export const bridgingAlone: Claim = {
  id: '003-bridging-alone',
  seed: '003',
  variant: true,
  claim:
    "Bridging alone is safe (this project's `bridging` safe variant): a legacy session accepted at /mcp does no harm when event IDs are per transport, replay is after the cursor, an unplaced cursor gets 404, the negotiated capabilities are kept and the client's cursor moves on drain.",
  test: 'test/model/claims-bridging.test.ts',
  judge() {
    const names = Object.keys(consequences) as Array<keyof typeof consequences>;
    const table: string[][] = [];
    const states: Record<string, number> = {};
    const harmful: Record<string, boolean> = {};
    const traces: FoundTrace[] = [];
    let movedServed = false;
    for (const [label, policy, moves] of rows) {
      const bounds = { ...bridgingBounds, moves };
      const result = explore({ policy, bounds, signatures: { ...consequences, moved: servesMovedCall, recovers: recoversFromRefusedMove } });
      const key = `${label}/${moves}`;
      states[key] = result.states;
      harmful[key] = names.some((n) => n in result.matches);
      const rule = result.violations.find((v) => v.property === 'no-cross-transport-resume');
      if (moves === 1 && policy === bridging) {
        movedServed = 'moved' in result.matches;
        if (result.matches.moved)
          traces.push({
            title: 'A legacy client moves to /mcp with its session ID and no cursor: the bridged session answers there',
            policy,
            bounds,
            path: result.matches.moved.path,
          });
        if (rule) traces.push({ title: "The rule's own invariant: the moved call's stream, resumed at /mcp", policy, bounds, path: rule.path });
      }
      if (moves === 1 && policy === reference && result.matches.recovers) {
        traces.push({
          title: 'The reference refuses the move with 404; the client re-initializes over streamable HTTP',
          policy,
          bounds,
          path: result.matches.recovers.path,
        });
      }
      table.push([
        label,
        String(moves),
        String(result.states),
        yesNo('moved' in result.matches),
        yesNo(!!rule),
        ...names.map((n) => yesNo(n in result.matches)),
      ]);
    }
    const vacuousBefore = states['bridging/0'] === states['reference/0'];
    const harmed = harmful['bridging/1']!;
    return judgementOf(this, {
      // Judged by consequences alone, on the world that presents a bridged session without a cursor.
      verdict: grade({ contradicted: harmed || !movedServed, boundaryMoved: false }),
      finding:
        (vacuousBefore
          ? `Without a cursorless move the variant explores exactly the reference's ${states['reference/0']} states: the world never presented a bridged session except by a resume, whose cursor per-transport IDs already refuse, so the earlier "safe" said nothing about bridging. `
          : '') +
        `With the move (bound moves=1) the bridged session answers the call at /mcp and the variant reaches ${states['bridging/1']} states against the reference's ${states['reference/1']}. ` +
        (harmed
          ? 'It has a consequence there (see the table): bridging alone is not safe.'
          : "Judged by consequences alone (loss, stall, duplicate effect, foreign capabilities) it has none: bridging alone is safe. It breaks only the rule's own invariant (no-cross-transport-resume), when the moved call's stream is resumed at /mcp, as bridging-shared-ids does; the reference refuses the move with 404 and the client re-initializes."),
      tables: [
        {
          header: [
            'server policy',
            'moves',
            'states',
            'model: moved call answered at /mcp',
            "breaks the rule's own invariant",
            ...names.map((n) => `model: ${n}`),
          ],
          rows: table,
        },
      ],
      traces,
    });
  },
};
