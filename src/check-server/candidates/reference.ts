/**
 * Candidate: this project's reference server (the model's session machine served over HTTP, both
 * transports, one session store) under the `reference` policy. The checker must find nothing wrong
 * with it; the mutants in `src/check-server/mutants/` are this server deliberately broken.
 */
import type { Policy } from '../../../model/policy.js';
import { createReferenceServer, type Mutation } from '../../reference/index.js';
import { toolVersion } from '../../version.js';
import { waitUntilPortRefuses, type RunningCandidate } from './adapter.js';

/** The `version` of this project's package.json (found from the sources and from dist/ alike). */
export function projectVersion(): string {
  return toolVersion();
}

/** What {@link startReference} serves. */
export interface ReferenceCandidateOptions {
  /** A policy or the name of one in `model/policy.ts` (default `reference`). */
  policy?: Policy | string;
  /** A deliberate distortion (default none). Pass a fresh one per start: mutations may keep state. */
  mutation?: Mutation;
  /** The candidate's name in reports (default `reference`). */
  name?: string;
}

/**
 * Starts the reference server on 127.0.0.1, on a free port, as a candidate.
 *
 * @returns the running candidate; `stop()` ends every stream and resolves once the port refuses connections
 */
export async function startReference(options: ReferenceCandidateOptions = {}): Promise<RunningCandidate> {
  const server = await createReferenceServer({
    host: '127.0.0.1',
    ...(options.policy !== undefined ? { policy: options.policy } : {}),
    ...(options.mutation !== undefined ? { mutation: options.mutation } : {}),
  });
  const port = Number(new URL(server.url).port);
  let stopping: Promise<void> | undefined;
  return {
    url: server.url,
    stop: () => {
      stopping ??= server.close().then(() => waitUntilPortRefuses(port));
      return stopping;
    },
    name: options.name ?? 'reference',
    version: projectVersion(),
  };
}

/** The adapter: the reference server under the `reference` policy. */
export default function start(): Promise<RunningCandidate> {
  return startReference({ policy: 'reference' });
}
