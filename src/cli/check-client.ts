/**
 * `mcp-resume-spec check-client`: checks an MCP client (an adapter module, or a built-in one)
 * against the reference server as an adversary, through a fault-injecting loopback proxy, and
 * reports which client properties it breaks. Exit status as `check`: 0 nothing violated at or above
 * `--fail-on`, 1 a property violated at or above it, 2 the check could not run.
 */
import { writeFileSync } from 'node:fs';
import { failOnLevels, type FailOn } from '../../properties/definition.js';
import { clientPropertyIds, type ClientPropertyId } from '../../properties/client/ids.js';
import type { ClientFactory } from '../client-check/contract.js';
import { loadClientAdapter } from '../client-check/load.js';
import { clientExitStatus, renderClientJson, renderClientText } from '../client-check/report.js';
import { runClientCheck } from '../client-check/run.js';
import { clientScenarios } from '../client-check/scenarios.js';
import { integerFlag, parseFlags } from './args.js';
import { UsageError, type Command } from './command.js';

/** Built-in clients for `--client`: the reference client, the SDK's two transports' client, and the mutants. */
async function builtIn(name: string): Promise<ClientFactory> {
  if (name === 'reference') return (await import('../client-adapters/reference-client.js')).referenceClientFactory();
  if (name === 'sdk') return (await import('../client-adapters/sdk.js')).sdkClientFactory;
  const { clientMutants } = await import('../client-mutants/index.js');
  const mutant = clientMutants.find((m) => m.name === name);
  if (!mutant) throw new UsageError(`--client: unknown client "${name}"; built in: reference, sdk, ${clientMutants.map((m) => m.name).join(', ')}`);
  return mutant.factory;
}

const usage = `usage: mcp-resume-spec check-client (--adapter MODULE | --client NAME) [--timeout MS] [--only IDS]
                                    [--scenarios NAMES] [--json] [--out FILE] [--fail-on must|should|policy]

Checks an MCP client: per scenario a fresh reference server, a loopback proxy that records the wire
and injects the scenario's faults (cuts, an undrained cut, delays, chosen answers, withheld priming,
an expired session), and a fresh client; then judges what the client's application saw and what went
over the wire.
  --adapter MODULE   a .ts, .mts, .cts, .js, .mjs or .cjs module whose default export returns (or resolves to)
                     a factory (opts: {url, transport, timeoutMs}) => Promise<{callTool, onNotification, close}>
                     (docs/clients.md; the official SDK's: src/client-adapters/sdk.ts)
  --client NAME      a built-in client: reference, sdk, or a client mutant (src/client-mutants/)
  --timeout MS       the request timeout the client is asked to use (default 1000); calls are awaited 3x + 500 ms
  --only IDS         comma-separated client properties: ${clientPropertyIds.join(', ')}
  --scenarios NAMES  comma-separated scenarios (default all): ${clientScenarios(1000).map((s) => s.name).join(', ')}
  --json             print the JSON report on stdout instead of the text report
  --out FILE         also write the JSON report to FILE
  --fail-on LEVEL    the weakest level whose failure fails the check (default policy): must, should, policy
Exit status: 0 no property violated at or above --fail-on, 1 a property violated at or above it,
2 the check could not run.`;

function list<T extends string>(flag: string, text: string | undefined, known: readonly T[]): T[] | undefined {
  if (text === undefined) return undefined;
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${flag} needs at least one name`);
  for (const item of items) {
    if (!(known as readonly string[]).includes(item)) throw new UsageError(`--${flag}: unknown "${item}"; known: ${known.join(', ')}`);
  }
  return items as T[];
}

export const checkClientCommand: Command = {
  name: 'check-client',
  summary: 'check an MCP client against the reference server with injected faults',
  usage,
  async run(argv) {
    const flags = parseFlags(argv, {
      adapter: { type: 'string' },
      client: { type: 'string' },
      timeout: { type: 'string' },
      only: { type: 'string' },
      scenarios: { type: 'string' },
      json: { type: 'boolean' },
      out: { type: 'string' },
      'fail-on': { type: 'string' },
    });
    if ((flags.adapter === undefined) === (flags.client === undefined)) throw new UsageError('give exactly one of --adapter MODULE or --client NAME');
    const failOnText = flags['fail-on'] ?? 'policy';
    if (!(failOnLevels as readonly string[]).includes(failOnText)) throw new UsageError(`--fail-on must be one of ${failOnLevels.join(', ')}, got ${JSON.stringify(failOnText)}`);
    const timeoutMs = integerFlag('timeout', flags.timeout, 1000, 60_000);
    if (timeoutMs < 50) throw new UsageError('--timeout must be at least 50 ms');
    const only = list<ClientPropertyId>('only', flags.only, clientPropertyIds);
    const scenarioNames = clientScenarios(timeoutMs).map((s) => s.name);
    const scenarios = list('scenarios', flags.scenarios, scenarioNames);

    let factory: ClientFactory;
    let name: string;
    if (flags.adapter !== undefined) {
      const loaded = await loadClientAdapter(flags.adapter);
      factory = loaded.factory;
      name = loaded.path;
    } else {
      factory = await builtIn(flags.client!);
      name = flags.client!;
    }
    const report = await runClientCheck(factory, {
      name,
      timeoutMs,
      ...(only ? { only } : {}),
      ...(scenarios ? { scenarios } : {}),
    });
    const json = renderClientJson(report);
    if (flags.out !== undefined) writeFileSync(flags.out, json);
    console.log(flags.json ? json : renderClientText(report));
    const status = clientExitStatus(report, failOnText as FailOn);
    if (status === 2) console.error('mcp-resume-spec check-client: no scenario could run (see the report)');
    return status;
  },
};
