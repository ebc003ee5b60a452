/**
 * `mcp-resume-spec demo` (`npm start`): the main job for a newcomer. The model's verdicts on
 * the reference policy and the two incidents, then the reference server and the official SDK
 * checked over HTTP, side by side in one table; then the client half: the SDK client, the
 * reference client and seed 000's cursor-on-receive client checked by check-client.
 */
import { defaultBounds, parseBounds } from '../../model/bounds.js';
import { explore } from '../../model/explore.js';
import { invariants } from '../../model/invariants.js';
import { policyByName } from '../../model/policy.js';
import { propertyIds, type PropertyId } from '../../model/property-ids.js';
import startSdk from '../check-server/candidates/sdk.js';
import { clientDemoTable, runClientDemo } from '../check-client/demo.js';
import { createReferenceServer } from '../reference/index.js';
import { runSuite } from '../check-server/run-suite.js';
import type { SuiteReport } from '../check-server/types.js';
import { integerFlag, parseFlags } from './args.js';
import type { Command } from './command.js';

const usage = `usage: mcp-resume-spec demo [--runs N] [--seed S]

Explores the model under the reference policy and the two incident policies (seed-000, seed-003),
then checks the reference server and the official SDK (@modelcontextprotocol/sdk, both transports,
its example event store) over HTTP, and prints one table: a column per subject, a row per property.
Then checks clients (the SDK client, the reference client, the cursor-on-receive client) against the
reference server with injected faults, as a second table.
Exit status 0 when the reference holds everywhere (model, server and client), 1 otherwise.`;

type Column = { title: string; cells: Partial<Record<PropertyId, string>> };

function modelColumn(title: string, policy: string, bounds = defaultBounds): Column {
  const result = explore({ policy: policyByName(policy), bounds });
  const cells: Partial<Record<PropertyId, string>> = {};
  for (const id of propertyIds) {
    if (!(id in invariants)) continue;
    const v = result.violations.find((x) => x.property === id);
    cells[id] = v ? `FAIL (${v.path.length} steps)` : 'holds';
  }
  return { title: `${title} (${result.states} states)`, cells };
}

function checkColumn(title: string, report: SuiteReport): Column {
  const cells: Partial<Record<PropertyId, string>> = {};
  for (const p of report.properties) cells[p.id] = p.status === 'fail' ? 'FAIL' : p.status === 'pass' ? 'holds' : 'skip';
  return { title, cells };
}

function table(columns: Column[]): string {
  const header = ['property', ...columns.map((c) => c.title)];
  const rows = propertyIds.map((id) => [id, ...columns.map((c) => c.cells[id] ?? 'n/a')]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export const demoCommand: Command = {
  name: 'demo',
  summary: "the model's verdicts, then the reference server and the SDK checked",
  usage,
  async run(argv) {
    const flags = parseFlags(argv, { runs: { type: 'string' }, seed: { type: 'string' } });
    const runs = integerFlag('runs', flags.runs, 100, 100_000);
    const seed = integerFlag('seed', flags.seed, 20261130, 2 ** 31 - 1);
    const say = (text: string) => process.stderr.write(`${text}\n`);

    say('exploring the model: reference, seed-000, seed-003 ...');
    const incidentBounds = parseBounds('calls=2,notifications=1,drops=1,resumes=1');
    const columns = [
      modelColumn('model: reference', 'reference'),
      modelColumn('model: seed-000', 'seed-000', incidentBounds),
      modelColumn('model: seed-003', 'seed-003', incidentBounds),
    ];

    say(`checking the reference server over HTTP (${runs} interleavings, seed ${seed}) ...`);
    const server = await createReferenceServer({ policy: 'reference' });
    let referenceReport: SuiteReport;
    try {
      referenceReport = await runSuite({ name: 'reference server', url: server.url }, { runs, seed });
    } finally {
      await server.close();
    }
    columns.push(checkColumn('check: reference server', referenceReport));

    say(`checking @modelcontextprotocol/sdk over HTTP (${runs} interleavings, seed ${seed}) ...`);
    const sdk = await startSdk();
    let sdkReport: SuiteReport;
    try {
      sdkReport = await runSuite({ name: sdk.name, version: sdk.version, url: sdk.url }, { runs, seed });
    } finally {
      await sdk.stop();
    }
    columns.push(checkColumn(`check: SDK ${sdk.version}`, sdkReport));

    console.log(table(columns));
    console.log('');
    console.log('model columns: exhaustive exploration (FAIL gives the shortest trace: mcp-resume-spec explore --policy NAME);');
    console.log(
      'check columns: coverage scenarios + fast-check interleavings over real HTTP (details: npm run cli -- check --adapter src/check-server/candidates/sdk.ts).',
    );
    for (const p of sdkReport.properties.filter((x) => x.status === 'fail')) console.log(`SDK ${p.id}: ${p.reason}`);

    // The client half: clients checked against the reference server as an adversary.
    const clientReports = await runClientDemo(say);
    console.log('');
    console.log(clientDemoTable(clientReports));
    console.log('');
    console.log(
      "client columns: the model's and the fixed scenarios over real HTTP through a fault-injecting proxy (details: npm run cli -- check-client --client sdk; docs/clients.md).",
    );
    for (const report of clientReports.filter((r) => r.client.name !== 'checking-client')) {
      for (const p of report.properties.filter((x) => x.status === 'fail')) console.log(`client ${report.client.name} ${p.id}: ${p.reason}`);
    }
    const referenceHolds =
      Object.values(columns[0]!.cells).every((c) => c === 'holds') &&
      referenceReport.properties.every((p) => p.status !== 'fail') &&
      clientReports.find((r) => r.client.name === 'checking-client')!.properties.every((p) => p.status !== 'fail');
    return referenceHolds ? 0 : 1;
  },
};
