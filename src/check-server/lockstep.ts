/**
 * The model as the oracle: the world under the reference server policy and the checking
 * client's settings, stepped in lockstep with the real scenario. Its steps are what the driver
 * does to the candidate; its answers are what a conforming server may answer.
 */
import type { Bounds } from '../../model/bounds.js';
import { reference, type Policy } from '../../model/policy.js';
import { enabledSteps } from '../../model/world-steps.js';
import type { World, WorldStep } from '../../model/world-types.js';
import { initialWorld } from '../../model/world.js';
import type { CandidateAbilities, ClientSettings } from './types.js';

/** The reference server with the checking client's knobs. */
export function oraclePolicy(client: ClientSettings): Policy {
  return {
    server: { ...reference.server },
    client: { ...reference.client, cursorAdvance: client.cursorAdvance, dedup: client.dedup, retryOnTimeout: client.retryOnTimeout },
  };
}

/** The world the driver starts from. */
export function oracleWorld(client: ClientSettings, bounds: Bounds): World {
  return initialWorld({ policy: oraclePolicy(client), bounds });
}

/**
 * Steps the driver can take against this candidate: the model's enabled steps, minus those the
 * candidate cannot be asked (a transport it does not serve, a fixture it lacks, DELETE on a
 * legacy session, and timeouts, which the driver handles when it settles).
 */
export function drivableSteps(world: World, abilities: CandidateAbilities): WorldStep[] {
  const both = abilities.transports.length === 2;
  return enabledSteps(world).filter((step) => {
    switch (step.type) {
      case 'INITIALIZE':
        return abilities.transports.includes(step.transport);
      case 'CALL':
        return !step.unsolicited || abilities.fixtures.emitUnsolicited;
      case 'RESUME':
        return step.via === 'same' || both;
      case 'DELETE':
        return world.client.transport === 'streamable';
      case 'TIMEOUT':
        return false;
      // A candidate's session expiry and log retention run on its own clocks and limits: not on command.
      case 'EXPIRE':
      case 'TRIM':
        return false;
      default:
        return true;
    }
  });
}
