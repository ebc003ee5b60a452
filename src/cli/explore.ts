/**
 * `mcp-resume-spec explore`: exhaustive exploration of the model within bounds.
 */
import { defaultBounds, formatBounds, parseBounds, type Bounds } from '../../model/bounds.js';
import { ExplorationBudgetExceeded, explore, type ExploreResult } from '../../model/explore.js';
import { invariants } from '../../model/invariants.js';
import { describePolicy, policies, policyByName, type Policy } from '../../model/policy.js';
import { propertyIds } from '../../model/property-ids.js';
import { formatTrace, replay } from '../../model/trace.js';
import { exploreMatrix } from '../explore/matrix.js';
import { integerFlag, parseFlags } from './args.js';
import { UsageError, type Command } from './command.js';

const usage = `usage: mcp-resume-spec explore [--policy NAME] [--bounds calls=2,notifications=2,drops=2] [--matrix]
                               [--max-states N] [--max-seconds N]

Explores every state of the model's world (server, wire, client) reachable within the bounds,
checks every invariant on each, and prints each violated property with its shortest trace.
  --policy NAME     a named policy (default reference): ${Object.keys(policies).join(', ')}
  --bounds LIST     bounds over the defaults ${formatBounds(defaultBounds)}
  --matrix          explore every named policy and print which properties each violates
  --max-states N    give up (exit 2) past N distinct states (default 500000)
  --max-seconds N   give up (exit 2) after N seconds (default 60)
Exit status: 0 no violation, 1 a violation, 2 bad flags or bounds too large to finish.`;

function summary(result: ExploreResult): string {
  const seconds = result.ms / 1000;
  return `explored ${result.states} states, ${result.transitions} transitions in ${seconds.toFixed(2)} s (${Math.round(result.states / Math.max(seconds, 1e-3))} states/s)`;
}

function report(name: string, policy: Policy, bounds: Bounds, result: ExploreResult): string {
  const lines = [`policy ${name}: ${describePolicy(policy)}`, `bounds ${formatBounds(bounds)}`, summary(result)];
  if (result.violations.length === 0) {
    lines.push(`no violation: ${Object.keys(invariants).length} invariants hold in every reachable state`);
  }
  for (const v of result.violations) {
    lines.push('', `VIOLATED ${v.property} (shortest trace: ${v.path.length} steps): ${v.message}`);
    lines.push(formatTrace(replay(policy, bounds, v.path)));
  }
  return lines.join('\n');
}

async function matrix(bounds: Bounds, options: { maxStates: number; maxMs: number }): Promise<{ text: string; violated: boolean }> {
  const checked = propertyIds.filter((id) => id in invariants);
  const header = ['policy', 'states', ...checked];
  const rows: string[][] = [];
  let violated = false;
  // The policies are explored side by side, on this thread and worker threads (src/explore/matrix.ts).
  for (const cell of await exploreMatrix(Object.keys(policies), { bounds, ...options })) {
    violated ||= cell.violations.length > 0;
    rows.push([
      cell.policy,
      String(cell.states),
      ...checked.map((id) => {
        const v = cell.violations.find((x) => x.property === id);
        return v ? `FAIL(${v.length})` : 'ok';
      }),
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return {
    text: [`bounds ${formatBounds(bounds)}`, 'FAIL(n): violated, shortest trace n steps', line(header), ...rows.map(line)].join('\n'),
    violated,
  };
}

export const exploreCommand: Command = {
  name: 'explore',
  summary: 'explore the model exhaustively within bounds',
  usage,
  async run(argv) {
    const flags = parseFlags(argv, {
      policy: { type: 'string' },
      bounds: { type: 'string' },
      matrix: { type: 'boolean' },
      'max-states': { type: 'string' },
      'max-seconds': { type: 'string' },
    });
    const bounds = parseBounds(flags.bounds ?? '');
    const maxStates = integerFlag('max-states', flags['max-states'], 500_000, 5_000_000);
    const maxMs = integerFlag('max-seconds', flags['max-seconds'], 60, 3600) * 1000;
    if (flags.matrix && flags.policy) throw new UsageError('--matrix explores every named policy; drop --policy');
    try {
      if (flags.matrix) {
        const { text, violated } = await matrix(bounds, { maxStates, maxMs });
        console.log(text);
        return violated ? 1 : 0;
      }
      const name = flags.policy ?? 'reference';
      const policy = policyByName(name);
      const result = explore({ policy, bounds, maxStates, maxMs });
      console.log(report(name, policy, bounds, result));
      return result.violations.length > 0 ? 1 : 0;
    } catch (error) {
      if (error instanceof ExplorationBudgetExceeded) throw new UsageError(`bounds ${formatBounds(bounds)} too large: ${error.message}`);
      throw error;
    }
  },
};
