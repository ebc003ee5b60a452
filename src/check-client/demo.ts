/**
 * The client half of `npm start`: the official SDK client, this project's correct client and the
 * cursor-on-receive mutant (seed 000's client) checked by `check-client` on the model's and the
 * fixed scenarios, as one table (a row per client property, a column per client).
 */
import { clientPropertyIds } from '../../properties/client/ids.js';
import { builtInClientFactory } from './built-in.js';
import { levelLabel, type ClientReport } from './report.js';
import { runClientCheck } from './run.js';

/** The clients the demo checks, in column order. */
const demoClients = ['sdk', 'checking-client', 'cursor-on-receive'] as const;

/** Checks the demo's clients; `say` reports progress. */
export async function runClientDemo(say: (text: string) => void, timeoutMs = 500): Promise<ClientReport[]> {
  const reports: ClientReport[] = [];
  for (const name of demoClients) {
    say(`checking the ${name === 'sdk' ? '@modelcontextprotocol/sdk' : name} client against the reference server with injected faults ...`);
    reports.push(await runClientCheck(await builtInClientFactory(name), { name, timeoutMs }));
  }
  return reports;
}

/** The table: a row per client property (with its level), a column per client. */
export function clientDemoTable(reports: readonly ClientReport[]): string {
  const header = ['client property', ...reports.map((r) => `client: ${r.client.name === 'sdk' ? 'SDK 1.32.2' : r.client.name}`)];
  const rows = clientPropertyIds.map((id) => [
    `${id} [${levelLabel(reports[0]?.properties.find((p) => p.id === id)?.level ?? 'policy')}]`,
    ...reports.map((r) => {
      const p = r.properties.find((x) => x.id === id);
      return !p ? 'n/a' : p.status === 'fail' ? 'FAIL' : p.status === 'pass' ? 'holds' : 'skip';
    }),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
