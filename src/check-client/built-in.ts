/**
 * The clients `check-client --client NAME` knows without an adapter module: this project's
 * checking client (`src/wire/`) in its correct setting, the official SDK client, and the client
 * mutants (the checking client with one knob flipped).
 */
import type { ClientFactory } from './adapters/contract.js';

/** The built-in clients' names. */
async function builtInClientNames(): Promise<string[]> {
  const { clientMutants } = await import('./mutants/index.js');
  return ['checking-client', 'sdk', ...clientMutants.map((m) => m.name)];
}

/**
 * A built-in client's factory.
 * @throws RangeError naming the built-in clients when `name` is none of them
 */
export async function builtInClientFactory(name: string): Promise<ClientFactory> {
  if (name === 'checking-client') return (await import('./adapters/checking-client.js')).checkingClientFactory();
  if (name === 'sdk') {
    // The SDK is an optional peer dependency: only this built-in client needs it.
    const sdk = await import('./adapters/sdk.js').catch((error: Error & { code?: string }) => {
      if (error.code === 'ERR_MODULE_NOT_FOUND' && /@modelcontextprotocol\/sdk/.test(error.message)) {
        throw new RangeError('the sdk client needs the official SDK beside this package: npm install @modelcontextprotocol/sdk@1.32.2');
      }
      throw error;
    });
    return sdk.sdkClientFactory;
  }
  const { clientMutants } = await import('./mutants/index.js');
  const mutant = clientMutants.find((m) => m.name === name);
  if (!mutant) throw new RangeError(`unknown client "${name}"; built in: ${(await builtInClientNames()).join(', ')}`);
  return mutant.factory;
}
