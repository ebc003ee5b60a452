/**
 * Candidates that hang, reset, answer garbage or crash: the suite says so with a reason, within
 * its bounds, and never passes what it could not observe.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { CandidateUnusable } from '../../src/check-server/abilities.js';
import { CandidateLost } from '../../src/check-server/reachable.js';
import { runSuite } from '../../src/check-server/run-suite.js';

const servers: http.Server[] = [];
let reference: ReferenceServer | undefined;
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  await reference?.close();
  reference = undefined;
});

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const fast = { timeoutMs: 200, maxMs: 15_000, runs: 10, seed: 1 };

test('a closed port: the check cannot run, and says why', async () => {
  const url = await listen(() => {});
  servers[0]!.close();
  await expect(runSuite({ name: 'closed', url }, fast)).rejects.toThrow(CandidateUnusable);
  await expect(runSuite({ name: 'closed', url }, fast)).rejects.toThrow(/neither transport.*(refused|ECONNREFUSED)/i);
});

test('a gate that answers 401: unusable, with the statuses as data and the sentence about the URL', async () => {
  const url = await listen((_req, res) => res.writeHead(401, { 'www-authenticate': 'Bearer' }).end());
  const error = await runSuite({ name: 'gate', url }, fast).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CandidateUnusable);
  const unusable = error as CandidateUnusable;
  // Both transports were answered 401 (POST initialize, and the legacy GET).
  expect(unusable.statuses).toEqual([401, 401]);
  expect(unusable.url).toBe(url);
  expect(unusable.message).toBe(`${url} ${unusable.said}`);
  expect(unusable.said).toMatch(/^answers initialize under neither transport \(/);
});

test('a server that answers 404 under one transport is unusable with that status only; a refused connection has none', async () => {
  const notFound = await listen((_req, res) => res.writeHead(404).end());
  const error = (await runSuite({ name: 'nothing', url: notFound }, fast).catch((e: unknown) => e)) as CandidateUnusable;
  expect(error.statuses).toEqual([404, 404]);
  const url = await listen(() => {});
  servers[1]!.close();
  const refused = (await runSuite({ name: 'closed', url }, fast).catch((e: unknown) => e)) as CandidateUnusable;
  expect(refused).toBeInstanceOf(CandidateUnusable);
  expect(refused.statuses).toEqual([]);
});

test('a server that never answers: unusable, within the bound', async () => {
  const url = await listen(() => {});
  await expect(runSuite({ name: 'hang', url }, fast)).rejects.toThrow(/neither transport.*timeout|within 200 ms/i);
});

test('a server that resets every connection: unusable', async () => {
  const url = await listen((req) => req.socket.destroy());
  await expect(runSuite({ name: 'reset', url }, fast)).rejects.toThrow(CandidateUnusable);
});

test('a server that answers garbage: unusable', async () => {
  const url = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('hello, I am not MCP');
  });
  await expect(runSuite({ name: 'garbage', url }, fast)).rejects.toThrow(/neither transport/);
  // Said as what it is: a body that is not JSON, not a JSON body without the response.
  await expect(runSuite({ name: 'garbage', url }, fast)).rejects.toThrow(
    /streamable HTTP at .*: initialize: protocol: 200 answer to initialize is not JSON: HTTP 200 \(text\/plain, 19 B\): "hello, I am not MCP"/,
  );
});

test('not a URL, or not http: a clear reason', async () => {
  await expect(runSuite({ name: 'x', url: 'not a url' }, fast)).rejects.toThrow(/not a URL/);
  await expect(runSuite({ name: 'x', url: 'ftp://127.0.0.1/' }, fast)).rejects.toThrow(/only http/);
});

test('initialize works but tool calls hang: no-silent-stall fails with the reason, nothing passes unobserved', async () => {
  reference = await createReferenceServer();
  const upstream = new URL(reference.url);
  // A proxy to the reference server that swallows every tools/call.
  const url = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.includes('"tools/call"')) return; // never answered
      const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      res.on('close', () => forward.destroy());
      forward.end(body);
    });
  });
  const report = await runSuite({ name: 'hangs-on-calls', url }, { ...fast, coverage: false });
  const stall = report.properties.find((p) => p.id === 'no-silent-stall')!;
  expect(stall.status).toBe('fail');
  expect(stall.reason).toMatch(/tools\/call .* got neither its response nor an error/);
  for (const p of report.properties) {
    if (p.status === 'pass') expect(p.runs, p.id).toBeGreaterThan(0);
    expect(p.reason, p.id).toBeTruthy();
  }
  // What needs a tool result to judge could not be observed.
  expect(report.properties.find((p) => p.id === 'at-most-once-effect')!.status).toBe('skip');
  expect(report.properties.find((p) => p.id === 'capabilities-honoured')!.status).not.toBe('pass');
}, 60_000);

test('tools/list unanswered: the note says so, not that the candidate has no fixture tools', async () => {
  // Answers initialize and its notification; every other request stays open and quiet.
  const url = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      if (body.includes('"initialize"')) {
        const id = (JSON.parse(body) as { id: number }).id;
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'half-1' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'half', version: '1' } },
          }),
        );
      } else if (body.includes('"notifications/initialized"')) res.writeHead(202).end();
    });
  });
  const report = await runSuite({ name: 'half', url }, { ...fast, runs: 0, coverage: false, maxMs: 5_000 });
  expect(report.abilities!.notes, report.abilities!.notes.join('\n')).toContain(
    'tools/list got no tool list (timeout: no response to POST /mcp within 200 ms): fixture tools unknown, so calls are pings, and properties that need notifications or effects are skipped',
  );
  expect(report.abilities!.notes.join('\n')).not.toContain('no emit fixture tool');
}, 60_000);

test('a candidate that crashes mid-run: the check stops and says so, passing and failing nothing on a server that is gone', async () => {
  reference = await createReferenceServer();
  const server = reference;
  let closing: Promise<void> | undefined;
  let after = 0;
  const check = runSuite(
    { name: 'crashes', url: server.url },
    {
      ...fast,
      timeoutMs: 2000,
      onProgress: ({ scenarios }) => {
        if (scenarios === 3 && !closing) closing = server.close();
        if (closing) after++;
      },
    },
  );
  await expect(check).rejects.toThrow(CandidateLost);
  await expect(check).rejects.toThrow(
    new RegExp(
      `^${server.url} stopped accepting connections during the check \\(first refused in scenario (probe:|coverage:)\\S+, after \\d+ scenarios\\); no verdict is given$`,
    ),
  );
  await closing;
  // It stopped soon after: not every coverage scenario and interleaving ran against a closed port.
  expect(after).toBeLessThan(40);
}, 60_000);
