/**
 * Every replay line is shell-quoted by one function: a POSIX shell reads back the words the check
 * was given, whatever the adapter path, URL, endpoint path or header name holds. Each line is run
 * by `sh` with `npx` standing in as a function that prints its arguments.
 */
import { describe, expect, test } from 'vitest';
import { headerFlags, headerVariable } from '../../src/report/common.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { sampleReport } from './sample.js';
import { shellWords } from './shell-words.js';

/** The replay commands of a Markdown report (the code span after `Replay: `, fenced by as many backticks as it needs). */
function replayLines(md: string): string[] {
  return [...md.matchAll(/^Replay: (`+)(.*?)\1(?!`)/gm)].map((m) => m[2]!);
}

const awkward = "/tmp/it's a dir/my adapter (v2).ts";

describe("the server check's Markdown replay lines", () => {
  test('an adapter path, endpoint paths and header names needing quotes read back as given', () => {
    const name = 'x-$token`id`';
    const md = renderMarkdown(sampleReport(), { adapter: awkward, paths: { mcp: '/v 2/mcp', sse: "/it's" }, headerNames: ['authorization', name] });
    const lines = replayLines(md);
    expect(lines).toHaveLength(2);
    const env = { [headerVariable('authorization')]: 'Bearer a b', [headerVariable(name)]: 'v$1' };
    const given = [
      'mcp-resume-spec',
      'check',
      '--adapter',
      awkward,
      '--mcp',
      '/v 2/mcp',
      '--sse',
      "/it's",
      '--header',
      'authorization: Bearer a b',
      '--header',
      `${name}: v$1`,
    ];
    expect(lines.map((line) => shellWords(line, env))).toEqual([
      [...given, '--path', 'probe:garbage-cursor'],
      [...given, '--seed', '1234567', '--path', '12:3:0:0'],
    ]);
  });

  test('a URL needing quotes reads back as given; plain words stay unquoted', () => {
    const url = 'http://127.0.0.1:8080/mcp?a=1&b=2';
    const md = renderMarkdown(sampleReport(), { url });
    expect(shellWords(replayLines(md)[1]!)).toEqual(['mcp-resume-spec', 'check', '--url', url, '--seed', '1234567', '--path', '12:3:0:0']);
    expect(headerFlags(['authorization'])).toBe(' --header "authorization: $MCP_HEADER_AUTHORIZATION"');
  });
});
