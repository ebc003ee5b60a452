#!/usr/bin/env node
// Runs a TypeScript entry point through ts-node's ESM loader (transpile only; `npm run typecheck` checks types).
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

process.env.TS_NODE_TRANSPILE_ONLY ??= 'true';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.env.TS_NODE_PROJECT ??= resolve(root, 'tsconfig.json');
register('ts-node/esm', pathToFileURL(`${root}/`));
// Tells src/loader/adapter-loader.ts that TypeScript modules already load here.
globalThis[Symbol.for('mcp-resume-spec.ts-node-esm')] = true;

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: run-ts.js FILE.ts [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(entry), ...rest];
await import(pathToFileURL(resolve(entry)).href);
