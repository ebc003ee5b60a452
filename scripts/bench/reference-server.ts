/**
 * Bench: complete resume scenarios per second against the reference server over loopback, driven
 * by the project's checking client and by the official SDK client. A scenario: initialize, call
 * `emit` with 10 notifications, lose the connection after the priming event and 3 notifications,
 * resume with the cursor, and drain everything up to the result. The checking client drops its
 * stream itself and resumes from the stream's cursor; the SDK client's POST body is cut by a
 * wrapped fetch and the SDK resumes by itself with its resumption token (its last event ID).
 * Target: the checking client is not slower than the SDK client.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { installedVersion } from '../../src/check-server/candidates/adapter.js';
import { CheckClient, toolText } from '../../src/wire/index.js';
import { createReferenceServer } from '../../src/reference/index.js';
import { cuttingFetch } from '../../test/reference/cut-fetch.js';
import type { BenchSection } from './section.js';

const NOTIFICATIONS = 10;
/** Frames let through before the drop: the priming event and 3 notifications. */
const BEFORE_DROP = 4;
const SCENARIOS = 200;
const WARMUP = 20;
const ROUNDS = 3;

type Scenario = (baseUrl: string, n: number) => Promise<void>;

function fail(what: string): never {
  throw new Error(`reference-server bench: ${what}`);
}

const checkingClientScenario: Scenario = async (baseUrl, n) => {
  const client = new CheckClient({ baseUrl, timeoutMs: 5000, keepAlive: true });
  try {
    const init = await client.initialize();
    if (!init.ok) fail(`initialize: ${init.reason}`);
    const call = await client.callTool('emit', { label: `check-${n}`, count: NOTIFICATIONS });
    const stream = call.stream ?? fail('emit was not answered with a stream');
    for (let i = 0; i < BEFORE_DROP; i++) {
      const r = await stream.receive();
      if (r.kind !== 'frame') fail(`receive before the drop: ${r.kind}`);
    }
    stream.drainAll();
    stream.drop();
    const resumed = await client.resume({ from: stream });
    if (resumed.kind !== 'stream') fail(`resume: ${resumed.kind}`);
    const outcome = await client.awaitResponseOn(resumed.stream, call.id);
    if (outcome.kind !== 'response' || toolText(outcome.message) === undefined) fail(`no result after the resume: ${outcome.kind}`);
    const drained = client.history.entries.filter((e) => e.type === 'drain' && e.message?.method === 'notifications/message').length;
    if (drained !== NOTIFICATIONS) fail(`checking client drained ${drained} notifications`);
  } finally {
    client.close();
  }
};

const sdkScenario: Scenario = async (baseUrl, n) => {
  const { fetch, cut } = cuttingFetch(BEFORE_DROP);
  const client = new Client({ name: 'bench', version: '0.0.0' }, { capabilities: {} });
  let notifications = 0;
  client.setNotificationHandler(LoggingMessageNotificationSchema, () => void notifications++);
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    fetch,
    reconnectionOptions: { initialReconnectionDelay: 0, maxReconnectionDelay: 0, reconnectionDelayGrowFactor: 1, maxRetries: 2 },
  });
  client.onerror = () => {}; // the cut is reported as "SSE stream disconnected"; it is the point
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: 'emit', arguments: { label: `sdk-${n}`, count: NOTIFICATIONS } }, CallToolResultSchema);
    await cut;
    if (!Array.isArray(result.content)) fail('SDK: no result');
    if (notifications !== NOTIFICATIONS) fail(`SDK received ${notifications} notifications`);
  } finally {
    await client.close();
  }
};

/** Runs `count` scenarios one after another; returns scenarios per second. */
async function rate(scenario: Scenario, baseUrl: string, count: number, offset: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) await scenario(baseUrl, offset + i);
  return count / ((performance.now() - start) / 1000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export default async function referenceServerBench(): Promise<BenchSection> {
  const server = await createReferenceServer({ policy: 'reference' });
  try {
    await rate(checkingClientScenario, server.url, WARMUP, -WARMUP);
    await rate(sdkScenario, server.url, WARMUP, -WARMUP);
    const checking: number[] = [];
    const sdk: number[] = [];
    // Alternate the clients so that drift (GC, the growing session store) weighs on both alike.
    for (let round = 0; round < ROUNDS; round++) {
      checking.push(await rate(checkingClientScenario, server.url, SCENARIOS, round * SCENARIOS));
      sdk.push(await rate(sdkScenario, server.url, SCENARIOS, round * SCENARIOS));
    }
    if (server.internalErrors.length > 0) fail(`${server.internalErrors.length} internal errors in the server`);
    const c = median(checking);
    const s = median(sdk);
    return {
      title: `reference server: resume scenarios over loopback (emit ${NOTIFICATIONS}, drop after ${BEFORE_DROP} frames, resume, drain; ${SCENARIOS} per round, median of ${ROUNDS})`,
      lines: [
        `checking client: ${c.toFixed(0)} scenarios/s`,
        `SDK client ${installedVersion('@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/client/index.js')}: ${s.toFixed(0)} scenarios/s (it also opens its standalone GET after initialize)`,
        `checking client / SDK = ${(c / s).toFixed(2)}x`,
      ],
    };
  } finally {
    await server.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const section = await referenceServerBench();
  console.log(section.title);
  for (const line of section.lines) console.log(`  ${line}`);
}
