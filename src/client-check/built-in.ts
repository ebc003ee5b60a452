/**
 * The clients `check-client --client NAME` knows without an adapter module: this project's
 * checking client (`src/client/`) in its correct setting, the official SDK client, and the client
 * mutants (the checking client with one knob flipped).
 */
import type { ClientFactory } from './contract.js';

/** The built-in clients' names. */
export async function builtInClientNames(): Promise<string[]> {
  const { clientMutants } = await import('../client-mutants/index.js');
  return ['checking-client', 'sdk', ...clientMutants.map((m) => m.name)];
}

/**
 * A built-in client's factory.
 * @throws RangeError naming the built-in clients when `name` is none of them
 */
export async function builtInClientFactory(name: string): Promise<ClientFactory> {
  if (name === 'checking-client') return (await import('../client-adapters/checking-client.js')).checkingClientFactory();
  if (name === 'sdk') return (await import('../client-adapters/sdk.js')).sdkClientFactory;
  const { clientMutants } = await import('../client-mutants/index.js');
  const mutant = clientMutants.find((m) => m.name === name);
  if (!mutant) throw new RangeError(`unknown client "${name}"; built in: ${(await builtInClientNames()).join(', ')}`);
  return mutant.factory;
}
