#!/usr/bin/env node
// The installed CLI: the compiled JavaScript in dist/ (`npm run build`; `npm pack` builds it first).
try {
  await import('../dist/src/cli/run.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/src/cli/run.js')) throw error;
  console.error('mcp-resume-spec: dist/ is not built; run `npm run build` (or `npm run cli -- ARGS` to run from source)');
  process.exitCode = 2;
}
