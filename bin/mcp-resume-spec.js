#!/usr/bin/env node
// The CLI: loads the TypeScript sources through ts-node's ESM loader (transpile only).
import { register } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.env.TS_NODE_TRANSPILE_ONLY ??= 'true';
process.env.TS_NODE_PROJECT ??= resolve(root, 'tsconfig.json');
register('ts-node/esm', pathToFileURL(root + '/'));

const { main } = await import(pathToFileURL(resolve(root, 'src/cli/main.ts')).href);
process.exitCode = await main(process.argv.slice(2));
