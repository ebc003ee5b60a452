/**
 * The client adapter contract of `mcp-resume-spec check-client --adapter MODULE`: the module's
 * default export is called with nothing and returns (or resolves to) a {@link ClientFactory}; the
 * checker calls the factory once per scenario and drives the {@link ClientUnderTest} it gets.
 */
import type { Transport } from '../../../model/transport.js';

/** What the checker hands the factory for one scenario. */
export interface ClientFactoryOptions {
  /**
   * The endpoint to connect to: `http://127.0.0.1:PORT/mcp` for `streamable`, `.../sse` for `sse`
   * (the checker's loopback proxy in front of the reference server).
   */
  url: string;
  transport: Transport;
  /**
   * The request timeout the checker expects the application to configure, ms. A call still
   * pending well past it (the checker waits several times longer) counts as an unbounded wait.
   */
  timeoutMs: number;
}

/** A client under test, connected (initialized) and ready for calls. */
export interface ClientUnderTest {
  /** Resolves with the tool's result as the application gets it; rejects with the error the client surfaces. */
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  /** Every notification the application receives, in order. */
  onNotification(listener: (notification: { method: string; params?: unknown }) => void): void;
  /** Closes the client; bounded by the checker. */
  close(): Promise<void>;
}

/** Makes one connected client per scenario. */
export type ClientFactory = (options: ClientFactoryOptions) => Promise<ClientUnderTest>;

/** Whether a value has the three methods of {@link ClientUnderTest}. */
export function isClientUnderTest(value: unknown): value is ClientUnderTest {
  const v = value as Partial<ClientUnderTest> | null;
  return typeof v === 'object' && v !== null && typeof v.callTool === 'function' && typeof v.onNotification === 'function' && typeof v.close === 'function';
}
