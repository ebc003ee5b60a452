import { describe, expect, test } from 'vitest';
import { UsageError } from '../../src/cli/command.js';
import { parseTargetUrl } from '../../src/cli/target-url.js';

describe('parseTargetUrl', () => {
  test('the streamable endpoint: legacy endpoints beside it', () => {
    expect(parseTargetUrl('http://127.0.0.1:3000/mcp')).toEqual({
      base: 'http://127.0.0.1:3000',
      paths: { mcp: '/mcp', sse: '/sse', messages: '/messages' },
      endpoint: 'http://127.0.0.1:3000/mcp',
      named: ['streamable'],
    });
  });

  test('an endpoint under a prefix, of any name: legacy endpoints under the same prefix', () => {
    expect(parseTargetUrl('http://localhost:8080/api/v1/stream')).toEqual({
      base: 'http://localhost:8080/api/v1',
      paths: { mcp: '/stream', sse: '/sse', messages: '/messages' },
      endpoint: 'http://localhost:8080/api/v1/stream',
      named: ['streamable'],
    });
  });

  test('a trailing slash stays part of the endpoint', () => {
    expect(parseTargetUrl('http://127.0.0.1:3000/mcp/')).toMatchObject({ base: 'http://127.0.0.1:3000', paths: { mcp: '/mcp/' }, named: ['streamable'] });
  });

  test('a base URL (no path): the default endpoints, none named (either transport may be missing)', () => {
    for (const text of ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/']) {
      expect(parseTargetUrl(text)).toEqual({
        base: 'http://127.0.0.1:3000',
        paths: { mcp: '/mcp', sse: '/sse', messages: '/messages' },
        endpoint: 'http://127.0.0.1:3000/mcp',
        named: [],
      });
    }
    // An endpoint flag names its endpoint, under a base URL too.
    expect(parseTargetUrl('http://127.0.0.1:3000', { sse: '/events' }).named).toEqual(['sse']);
  });

  test('legacy endpoints stay overridable', () => {
    expect(parseTargetUrl('http://127.0.0.1:3000/mcp', { sse: '/events', messages: '/post' }).named).toEqual(['streamable', 'sse']);
    expect(parseTargetUrl('http://127.0.0.1:3000/mcp', { sse: '/events', messages: '/post' }).paths).toEqual({
      mcp: '/mcp',
      sse: '/events',
      messages: '/post',
    });
  });

  test('the legacy endpoint named instead of the streamable one: read as such, with a note', () => {
    expect(parseTargetUrl('http://127.0.0.1:3000/api/sse')).toEqual({
      base: 'http://127.0.0.1:3000/api',
      paths: { mcp: '/mcp', sse: '/sse', messages: '/messages' },
      endpoint: 'http://127.0.0.1:3000/api/mcp',
      named: ['sse'],
      note: '--url names the legacy HTTP+SSE endpoint http://127.0.0.1:3000/api/sse: checking it as such, and streamable HTTP at http://127.0.0.1:3000/api/mcp beside it (it should name the streamable endpoint; if /api/sse is your streamable HTTP endpoint, give the legacy one with --sse PATH)',
    });
    // A server whose streamable endpoint is named sse says where its legacy stream is.
    expect(parseTargetUrl('http://127.0.0.1:3000/sse', { sse: '/events' })).toEqual({
      base: 'http://127.0.0.1:3000',
      paths: { mcp: '/sse', sse: '/events', messages: '/messages' },
      endpoint: 'http://127.0.0.1:3000/sse',
      named: ['streamable', 'sse'],
    });
  });

  test('with --mcp, the URL is a base URL whatever its path (the older form)', () => {
    expect(parseTargetUrl('http://127.0.0.1:3000/api', { mcp: '/mcp' })).toEqual({
      base: 'http://127.0.0.1:3000/api',
      paths: { mcp: '/mcp', sse: '/sse', messages: '/messages' },
      endpoint: 'http://127.0.0.1:3000/api/mcp',
      named: ['streamable'],
    });
  });

  test('https: the same reading, over TLS', () => {
    expect(parseTargetUrl('https://mcp.example.com/mcp')).toEqual({
      base: 'https://mcp.example.com',
      paths: { mcp: '/mcp', sse: '/sse', messages: '/messages' },
      endpoint: 'https://mcp.example.com/mcp',
      named: ['streamable'],
    });
  });

  test.each([
    ['not a URL', 'localhost:3000/mcp', /^--url: only http:\/\/ and https:\/\/ candidates can be checked, got localhost:\/\/$/],
    ['garbage', '::', /^--url: not a URL: "::"$/],
    ['ftp', 'ftp://example.com/mcp', /only http:\/\/ and https:\/\/ candidates/],
    ['a query', 'http://127.0.0.1:3000/mcp?token=x', /^--url: a query or fragment is not supported, got "\?token=x"$/],
    ['credentials', 'http://u:p@127.0.0.1:3000/mcp', /^--url: credentials in the URL are not supported$/],
  ])('%s: a usage error', (_name, text, pattern) => {
    let error: unknown;
    try {
      parseTargetUrl(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(pattern);
  });
});
