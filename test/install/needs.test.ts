/**
 * What `npm test` installs follows what it runs (scripts/test-needs.ts): the model's tests need
 * nothing beyond node_modules, the whole suite needs every scripts/ensure-NAME.sh (what `.ci/run`
 * installs beside `npm ci`).
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { declaredNeeds, knownNeeds, needsForArgs, needsOf, runtimeImports } from '../../scripts/test-needs.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every test file under test/, relative to the repository. */
function testFiles(dir = join(root, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

describe('the needs of a selection of tests', () => {
  test("the model's tests need nothing installed, as vitest selects them from `npm test -- test/model`", () => {
    expect(needsForArgs(['test/model'])).toEqual([]);
  });

  test('the whole suite needs every scripts/ensure-NAME.sh, redis-server and the Python environment among them', () => {
    expect(knownNeeds()).toEqual(expect.arrayContaining(['python', 'redis']));
    expect(needsOf(testFiles())).toEqual(knownNeeds());
  });

  test('a test needs what a module it imports declares: redis for every test that reaches src/check-server/candidates/local-redis.ts', () => {
    expect(needsOf(['test/replicas/replicas.test.ts'])).toEqual(['redis']);
    expect(needsOf(['test/event-store/sdk-candidates.test.ts'])).toEqual(['redis']);
    expect(needsOf(['test/candidates/python.test.ts'])).toEqual(['python']);
    expect(needsOf(['test/model/claims-000.test.ts', 'test/cli/check.test.ts'])).toEqual([]);
  });

  test('only imports that load a module count: `import type` and `export type` load nothing', () => {
    const source = [
      "import type { LocalRedis } from '../src/check-server/candidates/local-redis.js';",
      "export type { Deployment } from '../examples/replicas/deployment.js';",
      "import { a } from './a.js';",
      "export * from './b.js';",
      "const c = await import('./c.js');",
      "import { createClient } from 'redis';",
    ].join('\n');
    expect(runtimeImports('x.ts', source)).toEqual(['./a.js', './b.js', './c.js']);
  });

  test('a need is declared in a line comment of its own', () => {
    expect(declaredNeeds("// @needs redis (why)\nimport x from 'y';\n  // @needs python\n")).toEqual(['redis', 'python']);
    expect(declaredNeeds("const s = '// @needs redis';\n")).toEqual([]);
  });
});
