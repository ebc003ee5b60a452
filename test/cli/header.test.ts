/**
 * `check --header`: a server behind a gate (here the reference server behind a proxy that answers
 * 401 to any request without the bearer token) is checked with the header on every request, under
 * both transports, and the token is written to no report. Without it, the check says why it could
 * not run and how to give the header; a header the checking client sets itself is refused.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CandidateUnusable } from '../../src/check-server/abilities.js';
import { CandidateLost } from '../../src/check-server/reachable.js';
import { unusableMessage } from '../../src/cli/check.js';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { startProxy, type RunningProxy } from './proxy.js';
import { runCli } from './run-cli.js';

const token = 'Bearer s3cret-token-4711';
let reference: ReferenceServer;
let gate: RunningProxy;
let gateUrl: string;
/** Requests the gate refused, by method and path. */
const refused: string[] = [];

beforeAll(async () => {
  reference = await createReferenceServer();
  gate = await startProxy(reference.url, {
    admit: (req) => {
      if (req.headers.authorization === token) return true;
      refused.push(`${req.method} ${req.url}`);
      return false;
    },
  });
  gateUrl = `${gate.url}/mcp`;
});

afterAll(async () => {
  await gate.close();
  await reference.close();
});

test('with --header, a gated server is checked under both transports, and the token is in no report', async () => {
  refused.length = 0;
  const run = await runCli(
    ['check', '--url', gateUrl, '--header', `Authorization: ${token}`, '--runs', '20', '--no-coverage', '--timeout', '3000', '--quiet', '--json'],
    120_000,
  );
  const report = JSON.parse(run.stdout) as {
    status: string;
    properties: Array<{ id: string; status: string; reason: string }>;
    abilities: { transports: string[] };
  };
  expect(run.code, JSON.stringify(report.properties.filter((p) => p.status === 'fail'))).toBe(0);
  expect(report.status).toBe('pass');
  expect(report.abilities.transports.sort()).toEqual(['sse', 'streamable']);
  expect(report.properties.filter((p) => p.status === 'fail')).toEqual([]);
  expect(refused).toEqual([]);
  expect(run.stdout + run.stderr).not.toContain('s3cret');
}, 150_000);

test('without it, the check cannot run, and says how to give credentials', async () => {
  const run = await runCli(['check', '--url', gateUrl, '--runs', '0', '--quiet']);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/could not check .*401.*a server behind a gate is given its credentials with --header 'Authorization: \.\.\.'/);
  const wrong = await runCli(['check', '--url', gateUrl, '--header', 'Authorization: Bearer wrong', '--runs', '0', '--quiet']);
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toMatch(/could not check .*401.*the headers given \(--header, or the adapter's\) were refused$/m);
  expect(wrong.stderr).not.toContain('Bearer wrong');
});

test('a header the checking client sets itself, or one that is not "Name: value", is a usage error', async () => {
  const own = await runCli(['check', '--url', gateUrl, '--header', 'Mcp-Session-Id: mine', '--quiet']);
  expect(own.code).toBe(2);
  expect(own.stderr).toContain('--header: Mcp-Session-Id is set by the checking client itself');
  const shapeless = await runCli(['check', '--url', gateUrl, '--header', 'no colon here', '--quiet']);
  expect(shapeless.code).toBe(2);
  expect(shapeless.stderr).toContain('--header: "no colon here" is not "Name: value"');
});

test("a gate is known by the statuses initialize got, not by the message's words", () => {
  const url = 'http://127.0.0.1:4011';
  // Worded without the status: the statuses say it was a gate.
  const gate = new CandidateUnusable('was turned away at the door', { url, statuses: [401, 403] });
  expect(unusableMessage(gate, url, false)).toBe(
    `could not check ${url}: it was turned away at the door; a server behind a gate is given its credentials with --header 'Authorization: ...'`,
  );
  expect(unusableMessage(gate, url, true)).toBe(
    `could not check ${url}: it was turned away at the door; the headers given (--header, or the adapter's) were refused`,
  );
  // A 401 in the words (here in a port) and a 404 in the statuses: no gate.
  const notFound = new CandidateUnusable('answered HTTP 404 from port 401', { url, statuses: [404] });
  expect(unusableMessage(notFound, url, false)).toBe(`could not check ${url}: it answered HTTP 404 from port 401`);
  // A sentence about another URL, or about none, is said whole.
  expect(unusableMessage(new CandidateUnusable('stopped', { url: 'http://elsewhere' }), url, false)).toBe(`could not check ${url}: http://elsewhere stopped`);
  expect(unusableMessage(new CandidateLost('not a URL: "x"'), url, false)).toBe(`could not check ${url}: not a URL: "x"`);
});
