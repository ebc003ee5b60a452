/**
 * docs/contract.md is written by hand for implementers in any language; these checks keep what it
 * states in step with the code it is read off: every property with its level, the tool names, the
 * `count` bound, and the exact notification and result JSON the fixture tools produce.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { propertyIds } from '../../model/property-ids.js';
import { definitions } from '../../properties/definitions.js';
import { FIXTURE_TOOLS, MAX_EMIT_COUNT, emitResult, fixtureNotifications, sessionInfoResult } from '../../src/fixtures/core.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const contract = readFileSync(`${root}docs/contract.md`, 'utf8');

/** The JSON of every fenced ```json block, in order. */
const jsonBlocks = [...contract.matchAll(/```json\n([\s\S]*?)\n *```/g)].map((m) => JSON.parse(m[1]!) as unknown);

describe('docs/contract.md', () => {
  test('names every property, at its level, in the table of what each needs', () => {
    // That section only: the Python findings further down name properties and levels too.
    const needs = contract.slice(contract.indexOf('## What each property needs'), contract.indexOf('## The JSON report'));
    expect(needs.length).toBeGreaterThan(0);
    for (const id of propertyIds) {
      expect(needs, id).toContain(`| \`${id}\` | ${definitions[id].level.toUpperCase()} |`);
    }
  });

  test("gives each fixture tool's section and the bound of count", () => {
    for (const tool of FIXTURE_TOOLS) expect(contract).toContain(`### \`${tool}\``);
    const schema = jsonBlocks[0] as { properties: { count: { maximum: number; minimum: number } }; required: string[] };
    expect(schema.properties.count).toMatchObject({ minimum: 0, maximum: MAX_EMIT_COUNT });
    expect(schema.required).toEqual(['label', 'count']);
  });

  test('shows the notification and results the fixture tools produce, exactly', () => {
    expect(jsonBlocks[1]).toEqual({ jsonrpc: '2.0', ...fixtureNotifications('<label>', 1)[0] });
    expect(jsonBlocks[2]).toEqual(emitResult('<label>', 1));
    expect(jsonBlocks[3]).toEqual(sessionInfoResult('2025-11-25', { roots: { listChanged: true } }));
  });

  test('no tracked file cites a design document outside the repository', () => {
    // Spelled in parts, so that this file does not cite it either.
    const cited = ['design', 'md'].join('.');
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f !== '' && existsSync(root + f));
    expect(files.length).toBeGreaterThan(100);
    const citing = files.filter((f) => !/\.(png|jpg|gif|ico|woff2?)$/.test(f) && readFileSync(root + f, 'utf8').includes(cited));
    expect(citing).toEqual([]);
  });
});
