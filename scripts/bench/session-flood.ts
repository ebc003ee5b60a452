/**
 * Bench: a flood of initializes against the reference server with `serve`'s default limits (idle
 * TTL, session cap): heap growth after GC stays bounded by the cap, and evicted sessions answer
 * 404. The uncapped store (`--max-sessions 0`, what the server did before it had limits) is the
 * baseline: its growth per session, times the flood, is what the cap saves. Each flood runs in a
 * process of its own, so no flood's garbage is counted in another's heap.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createReferenceServer, defaultSessionLimits, type SessionLimits } from '../../src/reference/index.js';
import type { BenchSection } from './section.js';

const FLOOD = 100_000;
const BASELINE = 20_000;
const CONCURRENCY = 32;
/** The bound: a flood of 100,000 initializes grows the server by at most this much. */
const BOUND_MB = 100;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapMb(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flood', version: '0' } },
});

function post(agent: http.Agent, url: URL, payload: string, session?: string): Promise<{ status: number; session?: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': Buffer.byteLength(payload),
    };
    if (session) Object.assign(headers, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path: '/mcp', agent, headers }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, ...(res.headers['mcp-session-id'] ? { session: String(res.headers['mcp-session-id']) } : {}) }),
      );
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('initialize timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

interface Flood {
  growthMb: number;
  held: number;
  evicted: number;
  firstAnswer: number;
  lastAnswer: number;
  seconds: number;
}

async function flood(count: number, limits: Partial<SessionLimits>): Promise<Flood> {
  const server = await createReferenceServer({ limits });
  const url = new URL(server.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const before = heapMb();
    const started = performance.now();
    let next = 0;
    let first: string | undefined;
    let last: string | undefined;
    const worker = async (): Promise<void> => {
      while (next < count) {
        const n = next++;
        const answer = await post(agent, url, body);
        if (answer.status !== 200 || !answer.session) throw new Error(`initialize ${n} answered ${answer.status}`);
        if (n === 0) first = answer.session;
        last = answer.session;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    const growthMb = heapMb() - before;
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const firstAnswer = (await post(agent, url, ping, first)).status;
    const lastAnswer = (await post(agent, url, ping, last)).status;
    if (server.internalErrors.length > 0) throw new Error(`internal errors: ${String(server.internalErrors[0])}`);
    return { growthMb, held: server.sessions.size, evicted: server.evicted, firstAnswer, lastAnswer, seconds };
  } finally {
    agent.destroy();
    await server.close();
  }
}

/** One flood in a fresh process (this file with `--flood COUNT MAX_SESSIONS`, 0 for no cap). */
function floodInChild(count: number, maxSessions: number): Flood {
  const runner = fileURLToPath(new URL('../../bin/run-ts.js', import.meta.url));
  const out = execFileSync(process.execPath, [runner, fileURLToPath(import.meta.url), '--flood', String(count), String(maxSessions)], {
    encoding: 'utf8',
    timeout: 900_000,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Flood;
}

export default async function bench(): Promise<BenchSection> {
  const uncapped = floodInChild(BASELINE, 0);
  const capped = floodInChild(FLOOD, defaultSessionLimits.maxSessions);
  const perSession = uncapped.growthMb / BASELINE;
  const cap = defaultSessionLimits.maxSessions;
  return {
    title: `session flood: ${FLOOD.toLocaleString('en')} initializes, serve's defaults (cap ${cap.toLocaleString('en')}, idle TTL ${defaultSessionLimits.sessionTtlMs / 60_000} min)`,
    lines: [
      `heap growth after GC: ${capped.growthMb.toFixed(1)} MB (bound ${BOUND_MB} MB: ${capped.growthMb <= BOUND_MB ? 'within' : 'EXCEEDED'}); ${capped.held.toLocaleString('en')} sessions held, ${capped.evicted.toLocaleString('en')} evicted; ${Math.round(FLOOD / capped.seconds).toLocaleString('en')} initializes/s`,
      `first session after the flood answers ${capped.firstAnswer} (evicted), last answers ${capped.lastAnswer}`,
      `baseline, no cap: ${BASELINE.toLocaleString('en')} initializes grew the heap ${uncapped.growthMb.toFixed(1)} MB (${(perSession * 1024).toFixed(1)} KB per session, nothing freed); at that rate ${FLOOD.toLocaleString('en')} would take ${(perSession * FLOOD).toFixed(0)} MB`,
      `per session held: ${((capped.growthMb / capped.held) * 1024).toFixed(1)} KB capped vs ${(perSession * 1024).toFixed(1)} KB uncapped; ratio, capped flood / uncapped at ${FLOOD.toLocaleString('en')}: ${(capped.growthMb / (perSession * FLOOD)).toFixed(2)}`,
    ],
  };
}

if (process.argv[2] === '--flood') {
  const maxSessions = Number(process.argv[4]);
  const result = await flood(Number(process.argv[3]), { maxSessions: maxSessions === 0 ? Number.POSITIVE_INFINITY : maxSessions });
  console.log(JSON.stringify(result));
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const section = await bench();
  console.log(`== ${section.title}`);
  for (const line of section.lines) console.log(`   ${line}`);
}
