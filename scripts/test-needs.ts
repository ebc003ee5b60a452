/**
 * What the selected tests need installed besides node_modules, so that `npm test -- test/model`
 * installs nothing and `npm test` installs everything (scripts/test.sh runs this first).
 *
 * A module that needs something outside npm says so in a line comment, `// @needs NAME`, and
 * `scripts/ensure-NAME.sh` installs it (or says why it cannot). A test file needs what it and every
 * module it imports, at run time, say: the need sits where the program is started
 * (src/check-server/candidates/local-redis.ts spawns redis-server), and every test reaching it inherits it.
 *
 * Run as `node bin/run-ts.js scripts/test-needs.ts [vitest arguments]`: prints one NAME a line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The needs a module declares itself, one `// @needs NAME` line each. */
export function declaredNeeds(source: string): string[] {
  return [...source.matchAll(/^\s*\/\/\s*@needs\s+([a-z0-9-]+)/gm)].map((match) => match[1]);
}

/**
 * The relative modules a source imports at run time: static imports and re-exports (not
 * `import type` / `export type`, which load nothing) and `import('…')` of a literal path.
 */
export function runtimeImports(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return specifiers.filter((specifier) => specifier.startsWith('.'));
}

/** The file a relative specifier names: `./x.js` is `./x.ts` in the sources; undefined outside them. */
function resolveImport(from: string, specifier: string): string | undefined {
  const target = resolve(dirname(from), specifier);
  const candidates = [target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts'), target];
  return candidates.find((candidate) => /\.(ts|mts|js|mjs)$/.test(candidate) && existsSync(candidate));
}

/**
 * What the given files need: the `@needs` of each and of every module it imports at run time,
 * transitively.
 *
 * @param files - paths of test files (absolute, or relative to the repository)
 * @returns the needs' names, sorted
 */
export function needsOf(files: readonly string[], root: string = ROOT): string[] {
  const needs = new Set<string>();
  const seen = new Set<string>();
  const pending = files.map((file) => resolve(root, file));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const need of declaredNeeds(source)) needs.add(need);
    for (const specifier of runtimeImports(file, source)) {
      const target = resolveImport(file, specifier);
      if (target !== undefined && !seen.has(target)) pending.push(target);
    }
  }
  return [...needs].sort();
}

/** Every need there is: one `scripts/ensure-NAME.sh` each (what `.ci/run` installs beside `npm ci`). */
export function knownNeeds(root: string = ROOT): string[] {
  return readdirSync(join(root, 'scripts'))
    .map((name) => /^ensure-(.+)\.sh$/.exec(name)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort();
}

/**
 * The test files vitest would run with these arguments (`vitest list --filesOnly`, which reads the
 * same config and filters, and starts nothing), relative to the repository; or, when vitest cannot
 * list them (say, an option `list` does not take), its own first line of error.
 */
export function selectedTestFiles(args: readonly string[], root: string = ROOT): { files: string[] } | { error: string } {
  const dir = mkdtempSync(join(tmpdir(), 'test-needs-'));
  try {
    const out = join(dir, 'files.json');
    const vitest = join(root, 'node_modules/vitest/vitest.mjs');
    const listed = spawnSync(process.execPath, [vitest, 'list', '--filesOnly', `--json=${out}`, ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    if (listed.status !== 0 || !existsSync(out)) {
      const lines = `${listed.stderr}${listed.error ? String(listed.error) : ''}`
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      return { error: lines.find((line) => /^\w*Error: /.test(line)) ?? lines[0] ?? `exit ${listed.status ?? listed.signal}` };
    }
    const entries = JSON.parse(readFileSync(out, 'utf8')) as Array<{ file: string }>;
    return { files: entries.map((entry) => relative(root, entry.file)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The needs of the tests these vitest arguments select; every need when they cannot be listed (never fewer than needed). */
export function needsForArgs(args: readonly string[], root: string = ROOT): string[] {
  const selected = selectedTestFiles(args, root);
  if ('error' in selected) {
    process.stderr.write(`npm test: vitest could not list the selected test files (${selected.error}); installing what every test needs\n`);
    return knownNeeds(root);
  }
  const needs = needsOf(selected.files, root);
  const unknown = needs.filter((need) => !knownNeeds(root).includes(need));
  if (unknown.length > 0) throw new Error(`@needs ${unknown.join(', ')}: no scripts/ensure-NAME.sh installs ${unknown.length === 1 ? 'it' : 'them'}`);
  return needs;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const need of needsForArgs(process.argv.slice(2))) process.stdout.write(`${need}\n`);
}
