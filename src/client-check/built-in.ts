/**
 * The clients `check-client --client NAME` knows without an adapter module: this project's
 * reference client, the official SDK client, and the client mutants.
 */
import type { ClientFactory } from './contract.js';

/** The built-in clients' names. */
export async function builtInClientNames(): Promise<string[]> {
  const { clientMutants } = await import('../client-mutants/index.js');
  return ['reference', 'sdk', ...clientMutants.map((m) => m.name)];
}

/**
 * A built-in client's factory.
 * @throws RangeError naming the built-in clients when `name` is none of them
 */
export async function builtInClientFactory(name: string): Promise<ClientFactory> {
  if (name === 'reference') return (await import('../client-adapters/reference-client.js')).referenceClientFactory();
  if (name === 'sdk') return (await import('../client-adapters/sdk.js')).sdkClientFactory;
  const { clientMutants } = await import('../client-mutants/index.js');
  const mutant = clientMutants.find((m) => m.name === name);
  if (!mutant) throw new RangeError(`unknown client "${name}"; built in: ${(await builtInClientNames()).join(', ')}`);
  return mutant.factory;
}
