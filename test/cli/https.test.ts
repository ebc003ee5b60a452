/**
 * `check --url https://...`: a server behind TLS (the reference server behind a TLS-terminating
 * proxy whose certificate, in fixtures/tls/, is a throwaway one for 127.0.0.1) is checked under
 * both transports when Node trusts its certificate (NODE_EXTRA_CA_CERTS), and refused with the
 * TLS error when it does not.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/reference/index.js';
import { startProxy, type RunningProxy } from './proxy.js';
import { runCli } from './run-cli.js';

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/tls/${name}`, import.meta.url));
let reference: ReferenceServer;
let proxy: RunningProxy;

beforeAll(async () => {
  reference = await createReferenceServer();
  proxy = await startProxy(reference.url, { tls: { key: readFileSync(fixture('key.pem'), 'utf8'), cert: readFileSync(fixture('cert.pem'), 'utf8') } });
});

afterAll(async () => {
  await proxy.close();
  await reference.close();
});

test('a server behind TLS whose certificate Node trusts: checked under both transports', async () => {
  expect(proxy.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const run = await runCli(['check', '--url', `${proxy.url}/mcp`, '--runs', '20', '--no-coverage', '--timeout', '3000', '--quiet', '--json'], 120_000, {
    ...process.env,
    NODE_EXTRA_CA_CERTS: fixture('cert.pem'),
  });
  const report = JSON.parse(run.stdout) as {
    status: string;
    candidate: { url: string };
    properties: Array<{ id: string; status: string; reason: string }>;
    abilities: { transports: string[] };
  };
  expect(run.code, JSON.stringify(report.properties.filter((p) => p.status === 'fail'))).toBe(0);
  expect(report.candidate.url).toBe(proxy.url);
  expect(report.abilities.transports.sort()).toEqual(['sse', 'streamable']);
  expect(report.properties.filter((p) => p.status === 'fail')).toEqual([]);
}, 150_000);

test('one whose certificate Node does not trust: the check cannot run, and says why', async () => {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const run = await runCli(['check', '--url', `${proxy.url}/mcp`, '--runs', '0', '--quiet'], 60_000, env);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/could not check https:\/\/127\.0\.0\.1:\d+: .*self.signed certificate/i);
});
