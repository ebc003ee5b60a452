/**
 * The replicated deployment as a candidate adapter:
 * `mcp-resume-spec check --adapter examples/replicas/adapter.ts` starts redis-server, three
 * replicas and the proxy, checks the proxy, and stops them all.
 */
import { installedVersion, type RunningCandidate } from '../../src/check-server/candidates/adapter.js';
import { startDeployment } from './deployment.js';

/** Starts the deployment with the shared Redis log. */
export default async function start(): Promise<RunningCandidate> {
  const deployment = await startDeployment({ log: 'redis' });
  return {
    url: deployment.url,
    stop: deployment.stop,
    name: '@modelcontextprotocol/sdk x3 + Redis (round-robin)',
    version: installedVersion('@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/server/mcp.js'),
  };
}
