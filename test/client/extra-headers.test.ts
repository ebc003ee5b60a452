/** Headers a user adds to every request (`check --header`): parsed, refused where the client owns them, sent, and recorded redacted. */
import { afterEach, expect, test } from 'vitest';
import { CheckClient, parseExtraHeader } from '../../src/wire/index.js';
import { startHttp, type TestServer } from './servers.js';

let server: TestServer | undefined;
let client: CheckClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

test('"Name: value" is read as curl reads -H: the name lower-cased, both trimmed', () => {
  expect(parseExtraHeader('Authorization:  Bearer a:b ')).toEqual(['authorization', 'Bearer a:b']);
  expect(parseExtraHeader('X-Empty:')).toEqual(['x-empty', '']);
});

test("what is not a header, or is the client's own, is refused with the reason", () => {
  expect(() => parseExtraHeader('no colon')).toThrow('"no colon" is not "Name: value"');
  expect(() => parseExtraHeader(': value')).toThrow('is not "Name: value"');
  expect(() => parseExtraHeader('Bad Name: v')).toThrow('"Bad Name" is not a header name');
  expect(() => parseExtraHeader('X-Split: a\r\nInjected: 1')).toThrow('the value of X-Split has a control character');
  expect(() => parseExtraHeader('Authorization: Bearer t\u00f6ken\u20ac')).toThrow('the value of Authorization has a character outside Latin-1');
  for (const own of ['Accept', 'mcp-session-id', 'Last-Event-ID', 'MCP-Protocol-Version', 'Content-Length', 'Host']) {
    expect(() => parseExtraHeader(`${own}: x`), own).toThrow(`${own} is set by the checking client itself`);
  }
  expect(() => new CheckClient({ baseUrl: 'http://127.0.0.1:1', headers: { 'last-event-id': 'x' } })).toThrow(RangeError);
});

test('every request carries the headers; the history keeps their names, not their values', async () => {
  const seen: Array<string | undefined> = [];
  server = await startHttp((req, res, request) => {
    seen.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'S1' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: request.json.id,
        result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 't', version: '1' } },
      }),
    );
  });
  client = new CheckClient({ baseUrl: server.url, headers: { Authorization: 'Bearer sekrit' } });
  await client.initialize({ transport: 'streamable' });
  await (await client.ping()).response();
  expect(seen.length).toBeGreaterThanOrEqual(2);
  expect(seen.every((value) => value === 'Bearer sekrit')).toBe(true);
  const requests = client.recorder.history.entries.filter((e) => e.type === 'request');
  expect(requests.map((r) => r.headers.authorization)).toEqual(requests.map(() => '<redacted>'));
  expect(JSON.stringify(client.recorder.history)).not.toContain('sekrit');
});

test('a legacy endpoint event naming another origin gets none of them: a token goes only where --url points', async () => {
  const elsewhere = await startHttp((_req, res) => void res.writeHead(202).end());
  const authorizations: Array<string | undefined> = [];
  server = await startHttp((req, res) => {
    authorizations.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`event: endpoint\ndata: ${elsewhere.url}/messages?sessionId=L1\n\n`);
  });
  try {
    client = new CheckClient({ baseUrl: server.url, headers: { authorization: 'Bearer sekrit' }, timeoutMs: 300 });
    await client.initialize({ transport: 'sse' });
    expect(authorizations).toEqual(['Bearer sekrit']);
    expect(elsewhere.requests.length).toBeGreaterThan(0);
    expect(elsewhere.requests.map((r) => r.headers.authorization)).toEqual(elsewhere.requests.map(() => undefined));
  } finally {
    client?.close();
    client = undefined;
    await elsewhere.close();
  }
});
