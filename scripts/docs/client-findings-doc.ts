/**
 * docs/client-findings.md, from real runs: the official SDK client, this project's checking client
 * (`src/wire/`) in its on-drain setting and every client mutant (its on-receive setting among them) checked by `check-client` against the reference server with the same
 * scenarios and faults; per client each property's status, and per failure the scenario, the reason
 * and the trace. IDs that differ run to run (sessions, event-ID tags) are shown as placeholders.
 */
import { clientPropertyIds } from '../../properties/client/ids.js';
import { clientDefinitions } from '../../properties/client/definitions.js';
import { checkingClientFactory } from '../../src/check-client/adapters/checking-client.js';
import { sdkClientFactory } from '../../src/check-client/adapters/sdk.js';
import type { ClientFactory } from '../../src/check-client/adapters/contract.js';
import { describeFault } from '../../src/check-client/faults.js';
import { clientReplayFlags, levelLabel, renderTrace, type ClientReport } from '../../src/check-client/report.js';
import { runClientCheck } from '../../src/check-client/run.js';
import { clientMutants } from '../../src/check-client/mutants/index.js';
import { modelPrediction } from '../../src/check-client/model-scenarios.js';
import { fence, generatedBanner, table } from './markdown.js';

/** The clients checked, in the order the page lists them. */
export const clientSubjects: Array<{ name: string; about: string; factory: ClientFactory }> = [
  {
    name: 'sdk',
    about:
      '`@modelcontextprotocol/sdk` 1.32.2 `Client` over `StreamableHTTPClientTransport` (reconnection options scaled to the timeout, resumption token) and `SSEClientTransport` (`src/check-client/adapters/sdk.ts`).',
    factory: sdkClientFactory,
  },
  {
    name: 'checking-client',
    about:
      "This project's checking client (`src/wire/`, `CheckClient`) in its on-drain setting, the correct one: `cursorAdvance: 'drain'`, `dedup: true`, through `src/check-client/adapters/checking-client.ts` (the application processes frames one behind; a cut drops what it has not processed and resumes with the client's own `resume` from the stream's cursor). The `cursor-on-receive` mutant below is the same client in its on-receive setting.",
    factory: checkingClientFactory(),
  },
  ...clientMutants.map((m) => ({ name: m.name, about: `Client mutant: ${m.flaw}.`, factory: m.factory })),
];

/** The timeout every client is asked to use in the documented run, ms. */
export const findingsTimeoutMs = 800;

/** Runs every subject (sequentially: each scenario has its own server and proxy). */
export async function runClientSubjects(): Promise<ClientReport[]> {
  const reports: ClientReport[] = [];
  for (const subject of clientSubjects) reports.push(await runClientCheck(subject.factory, { name: subject.name, timeoutMs: findingsTimeoutMs }));
  return reports;
}

/** Hides what differs run to run: session IDs and event-ID tags. */
export function normalizeClientText(text: string): string {
  return text
    .replace(/\b[0-9a-f]{32}\b/g, '<session>')
    .replace(/\b(http|sse):[0-9a-f]{8}-e(\d+)/g, '$1:<tag>-e$2')
    .replace(/sessionId=[0-9a-f]{8,32}/g, 'sessionId=<session>')
    .replace(/session [0-9a-f]{8}\b/g, 'session <session>');
}

/** The status matrix: one row per client, one column per property. */
export function clientFindingsTable(reports: ClientReport[]): { header: string[]; rows: string[][] } {
  const header = ['client', ...clientPropertyIds.map((id) => `\`${id}\` (${levelLabel(clientDefinitions[id].level)})`)];
  const rows = reports.map((r) => [
    `\`${r.client.name}\``,
    ...clientPropertyIds.map((id) => {
      const p = r.properties.find((x) => x.id === id);
      return p === undefined ? 'n/a' : p.status === 'fail' ? '**FAIL**' : p.status;
    }),
  ]);
  return { header, rows };
}

/**
 * The model's prediction per client mutant beside its catalog entry: the properties the model
 * finds broken under the mutant's knobs (exploration, pure: the same on every run), the knobs it
 * has no counterpart for, and what the catalog says the checker finds.
 */
export function clientPredictionTable(): { header: string[]; rows: string[][] } {
  const header = ['mutant', 'model predicts', 'scenario the model derives', 'outside the model', 'the checker finds (catalog)'];
  const rows = clientMutants.map((m) => {
    const p = modelPrediction(m.knobs);
    const ids = (list: readonly string[]) => (list.length > 0 ? list.map((id) => `\`${id}\``).join(', ') : 'nothing');
    return [
      `\`${m.name}\``,
      ids(p.predicted),
      p.scenarios.length > 0 ? [...new Set(p.scenarios.map((s) => `${s.policyName} server; ${s.faults.map(describeFault).join('; ')}`))].join(' / ') : '—',
      p.outside.length > 0 ? p.outside.map((k) => `\`${k}\``).join(', ') : '—',
      ids(m.breaks),
    ];
  });
  return { header, rows };
}

/** Reads a table back from the committed page (for the staleness test): the one whose header starts `| first |`. */
export function readClientFindings(markdown: string, first = 'client'): { header: string[]; rows: string[][] } {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  const cells = (line: string) => line.slice(2, -2).split(' | ');
  const header = cells(lines[start]!);
  const rows: string[][] = [];
  for (let i = start + 2; lines[i]?.startsWith('|'); i++) rows.push(cells(lines[i]!));
  return { header, rows };
}

export async function clientFindingsDoc(): Promise<string> {
  const reports = await runClientSubjects();
  const { header, rows } = clientFindingsTable(reports);
  const out = [
    generatedBanner('scripts/docs/client-findings-doc.ts'),
    '',
    '# Client findings',
    '',
    `Every client below was checked by \`mcp-resume-spec check-client\` with a ${findingsTimeoutMs} ms request timeout, against the reference server behind the fault-injecting proxy (scenarios, faults and properties: [clients.md](clients.md)). \`pass\`: exercised and never broken; \`skip\`: no scenario exercised it.`,
    '',
    table(header, rows),
    '',
    "Scenarios: the fixed catalog, and the model's (`model:…`): the shortest paths of the bounded client world (one streamable call of two notifications, one drop, one resume) to a live call stream with a frame undrained, in flight, or processed, cut there; and, for each client mutant's knobs, the shortest path to a state that breaks a client property, staged as the same proxy faults. `check-client` adds fast-check interleavings of calls and faults (`--runs`, shrunk, replayable with `--seed`/`--path`); this page is generated without them, so it is the same on every run.",
    '',
    '## What the model predicts',
    '',
    "The model has three of the client's knobs (cursor, dedup, retry on timeout). Explored under a mutant's knobs against the reference server and one that replays inclusively, it predicts which client properties some fault breaks, and the fault: `test/client-check/model.test.ts` runs each derived scenario on the real mutant (it breaks exactly the prediction) and on the correct client (nothing).",
    '',
    table(clientPredictionTable().header, clientPredictionTable().rows),
    '',
    "Where the catalog lists more than the model predicts, the fault is one the model has no step for: `retry-on-timeout` re-sends a call whose result a slow server holds past the timeout (`delayed-result`); the model has no time, and a timeout there needs a stalled stream, which the reference server never leaves. The re-sent call's notifications then reach the application twice as well.",
    '',
  ];
  for (const [i, report] of reports.entries()) {
    const subject = clientSubjects[i]!;
    out.push(`## \`${subject.name}\``, '', subject.about, '');
    const broken = report.scenarios.filter((s) => s.broke.length > 0 || s.error);
    out.push(
      broken.length === 0
        ? 'No scenario broke a property.'
        : table(
            ['scenario', 'broke'],
            broken.map((s) => [s.name, s.error ? `could not run: ${s.error}` : s.broke.join(', ')]),
          ),
      '',
    );
    for (const p of report.properties.filter((x) => x.status === 'fail')) {
      const c = p.counterexample!;
      out.push(
        `### ${p.id} (${levelLabel(p.level)})`,
        '',
        normalizeClientText(p.reason ?? ''),
        '',
        `Scenario \`${c.scenario}\` (${c.policy} server; replay: \`check-client --client ${subject.name} --timeout ${findingsTimeoutMs} ${clientReplayFlags(c)}\`); faults: ${c.faults.join('; ') || 'none'}. The failing entry is marked ✗.`,
        '',
        fence('text', normalizeClientText(renderTrace(c.history, c.at).join('\n'))),
        '',
      );
    }
  }
  return out.join('\n');
}
