/**
 * `npm run example:replicas`: three SDK server replicas sharing Redis behind a round-robin proxy,
 * in the foreground until Ctrl-C. Options: `--log memory` (each replica keeps its own log, to see
 * what breaks), `--replicas N`, `--port P` (the proxy's), `--redis URL` (default: a throwaway
 * redis-server on a free loopback port).
 */
import { parseArgs } from 'node:util';
import { startDeployment } from './deployment.js';

const { values } = parseArgs({
  options: {
    log: { type: 'string', default: 'redis' },
    replicas: { type: 'string', default: '3' },
    port: { type: 'string', default: '0' },
    redis: { type: 'string' },
  },
});
const replicas = Number(values.replicas);
const port = Number(values.port);
if ((values.log !== 'redis' && values.log !== 'memory') || !(Number.isInteger(replicas) && replicas > 0) || !(Number.isInteger(port) && port >= 0)) {
  console.error('usage: npm run example:replicas -- [--log redis|memory] [--replicas N] [--port P] [--redis URL]');
  process.exit(2);
}

const deployment = await startDeployment({ log: values.log, replicas, port, ...(values.redis ? { redisUrl: values.redis } : {}) });
console.log(`${replicas} replicas (${values.log} log) behind a round-robin proxy at ${deployment.url}/mcp`);
console.log(`  replicas: ${deployment.replicaUrls.join(', ')}`);
console.log(`  redis:    ${deployment.redisUrl}`);
console.log(`check it:   npx mcp-resume-spec check --url ${deployment.url}`);
console.log('Ctrl-C stops everything.');

const stop = async (): Promise<void> => {
  await deployment.stop();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
