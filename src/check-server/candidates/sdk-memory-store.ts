/**
 * Candidate: the official SDK with this project's `MemoryEventStore`, one per session
 * (`mcp-resume-spec check --adapter src/check-server/candidates/sdk-memory-store.ts`).
 */
import { MemoryEventStore } from '../../event-store/index.js';
import type { RunningCandidate } from './adapter.js';
import { startSdkWithStore } from './sdk-store.js';

/** Starts the SDK with a `MemoryEventStore` per session, on a free loopback port. */
export default function start(): Promise<RunningCandidate> {
  return startSdkWithStore({ name: 'MemoryEventStore', create: () => new MemoryEventStore() });
}
