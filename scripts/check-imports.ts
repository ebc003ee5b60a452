/**
 * The direction of imports: the folders of `model/`, `properties/` and `src/` stand in layers, and a
 * file imports only from its own folder or from a lower layer (never up, never sideways into a
 * folder of its own layer); no file circle, type-only imports included. `test/`, `scripts/` and
 * `examples/` use the layers and are used by none of them.
 *
 * Run: `node bin/run-ts.js scripts/check-imports.ts` (exit 1 and one line per problem);
 * `test/imports.test.ts` runs it in `npm test`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The layers, lowest first. A unit is a folder (with its subfolders, unless one of them is a unit of
 * its own) or a single file; each file belongs to its longest unit.
 */
export const layers: readonly (readonly string[])[] = [
  ['model'],
  ['properties'],
  // Below src/wire: the checking client announces the package's version.
  ['src/version.ts'],
  ['src/wire', 'src/fixtures', 'src/event-store', 'src/loader', 'src/explore'],
  ['src/reference'],
  ['src/check-server/candidates'],
  ['src/check-server'],
  ['src/check-server/mutants'],
  ['src/report'],
  ['src/check-client/adapters'],
  ['src/check-client/mutants'],
  ['src/check-client'],
  ['src/cli'],
  ['src/index.ts'],
];

/** Folders that may import any layer and that no layer may import. */
export const users: readonly string[] = ['test', 'scripts', 'examples'];

/** The folders scanned. */
const scanned = ['model', 'properties', 'src', ...users];

const sourceFile = /\.(ts|mts|js|mjs)$/;

function filesUnder(root: string, folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path);
      } else if (sourceFile.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
    }
  };
  if (existsSync(join(root, folder))) walk(folder);
  return out;
}

/** The repository file a relative specifier names, or null when it names none. */
function resolveSpecifier(root: string, from: string, specifier: string): string | null {
  const target = relative(root, join(root, dirname(from), specifier))
    .split(sep)
    .join('/');
  const candidates = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts')];
  for (const candidate of candidates) {
    const path = join(root, candidate);
    if (existsSync(path) && statSync(path).isFile()) return candidate;
  }
  return null;
}

/** The unit a path belongs to: its longest declared unit, a user folder, or null (undeclared). */
function unitOf(path: string, units: readonly string[]): string | null {
  let best: string | null = null;
  for (const unit of units) {
    if ((path === unit || path.startsWith(`${unit}/`)) && (best === null || unit.length > best.length)) best = unit;
  }
  return best;
}

/** One relative import: who imports what (repository paths). */
export interface ImportEdge {
  from: string;
  to: string;
}

/** Every relative import (static, type-only, re-export and dynamic `import()`) of the scanned files. */
export function importEdges(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of scanned.flatMap((folder) => filesUnder(root, folder))) {
    const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    for (const imported of info.importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const to = resolveSpecifier(root, file, imported.fileName);
      if (to !== null) edges.push({ from: file, to });
    }
  }
  return edges;
}

/** The file circles of a graph (strongly connected components of two files or more, or a self-import). */
export function circles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (next.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** The problems of a tree: undeclared folders, imports against the layers, file circles. One line each. */
export function importProblems(root: string, declared: readonly (readonly string[])[] = layers): string[] {
  const rank = new Map<string, number>();
  for (const [level, layer] of declared.entries()) for (const unit of layer) rank.set(unit, level);
  const units = [...rank.keys(), ...users];
  const problems: string[] = [];
  for (const file of ['model', 'properties', 'src'].flatMap((folder) => filesUnder(root, folder))) {
    if (unitOf(file, units) === null) problems.push(`${file}: in no declared layer (scripts/check-imports.ts)`);
  }
  const edges = importEdges(root);
  for (const { from, to } of edges) {
    const a = unitOf(from, units);
    const b = unitOf(to, units);
    if (a === null || b === null || a === b) continue;
    if (users.includes(a)) continue;
    if (users.includes(b)) {
      problems.push(`${from} imports ${to}: ${b}/ uses the layers, no layer uses it`);
    } else if (rank.get(b)! > rank.get(a)!) {
      problems.push(`${from} imports ${to}: up from ${a} to ${b}`);
    } else if (rank.get(b) === rank.get(a)) {
      problems.push(`${from} imports ${to}: sideways between ${a} and ${b} (one layer)`);
    }
  }
  for (const circle of circles(edges)) problems.push(`file circle: ${circle.join(' <-> ')}`);
  return problems;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const problems = importProblems(root);
  for (const problem of problems) console.log(problem);
  if (problems.length > 0) {
    console.error(`check-imports: ${problems.length} problem(s)`);
    process.exitCode = 1;
  } else console.log('check-imports: imports flow down the layers, no file circle');
}
