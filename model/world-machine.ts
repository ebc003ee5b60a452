/**
 * The world as an XState machine, so that xstate/graph can traverse it: one state, one guarded
 * transition per step type, each applying the pure step function.
 */
import { assign, setup } from 'xstate';
import { canStep } from './world-steps.js';
import type { World, WorldInput, WorldStep } from './world-types.js';
import { initialWorld, step } from './world.js';

export const worldMachine = setup({
  types: { context: {} as World, events: {} as WorldStep, input: {} as WorldInput },
  guards: { enabled: ({ context, event }) => canStep(context, event) },
  actions: { apply: assign(({ context, event }) => step(context, event)) },
}).createMachine({
  id: 'world',
  context: ({ input }) => initialWorld(input),
  on: {
    INITIALIZE: { guard: 'enabled', actions: 'apply' },
    CALL: { guard: 'enabled', actions: 'apply' },
    SEND: { guard: 'enabled', actions: 'apply' },
    RECEIVE: { guard: 'enabled', actions: 'apply' },
    DRAIN: { guard: 'enabled', actions: 'apply' },
    DROP: { guard: 'enabled', actions: 'apply' },
    RESUME: { guard: 'enabled', actions: 'apply' },
    TIMEOUT: { guard: 'enabled', actions: 'apply' },
    DELETE: { guard: 'enabled', actions: 'apply' },
    EXPIRE: { guard: 'enabled', actions: 'apply' },
    TRIM: { guard: 'enabled', actions: 'apply' },
  },
});
