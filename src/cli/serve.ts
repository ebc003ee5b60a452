/**
 * `mcp-resume-spec serve`: the model as a live MCP server (both transports) under any named policy.
 */
import { policies } from '../../model/policy.js';
import { createReferenceServer, defaultSessionLimits } from '../reference/index.js';
import { integerFlag, parseFlags } from './args.js';
import { UsageError, type Command } from './command.js';

/** A limit flag: a positive integer, or 0 for none (Infinity); the default when absent. */
function limitFlag(name: string, value: string | undefined, fallback: number, unit = 1): number {
  const n = integerFlag(name, value, -1);
  if (n === -1) return fallback;
  return n === 0 ? Number.POSITIVE_INFINITY : n * unit;
}

const usage = `usage: mcp-resume-spec serve [--policy NAME] [--port N] [--host ADDRESS]
                            [--session-ttl SECONDS] [--max-sessions N] [--log-retention N]

Serves the model's session machine as an MCP server over HTTP: streamable HTTP at /mcp, legacy
HTTP+SSE at /sse and /messages, one session store for both, with the fixture tools emit,
emit_unsolicited and session_info. Prints the streamable HTTP endpoint's URL on one line (what
\`mcp-resume-spec check --url\` takes), then serves until SIGINT or SIGTERM.

  --policy NAME   policy from the model (default reference): ${Object.keys(policies).join(', ')}
  --port N        port to listen on (default 0: any free port)
  --host ADDRESS  interface to bind (default 127.0.0.1)
  --session-ttl SECONDS
                  a session idle this long (no request, no open stream) expires and answers
                  404 from then on, as a terminated one (default ${defaultSessionLimits.sessionTtlMs / 1000}; 0: never)
  --max-sessions N
                  sessions held at most; beyond it the least recently used is evicted and
                  answers 404 (default ${defaultSessionLimits.maxSessions}; 0: no cap)
  --log-retention N
                  events each session's log keeps; a Last-Event-ID older than that is refused
                  with 404, never replayed with a gap (default 0: every event)`;

/** The first SIGINT or SIGTERM from now; `cancel` stops listening without waiting. */
function stopSignal(): { received: Promise<NodeJS.Signals>; cancel(): void } {
  let onSignal: (signal: NodeJS.Signals) => void = () => {};
  const cancel = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  const received = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = (signal) => {
      cancel();
      resolve(signal);
    };
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { received, cancel };
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the model as a real MCP server over HTTP (both transports)',
  usage,
  async run(argv: string[]): Promise<number> {
    const flags = parseFlags(argv, {
      policy: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'session-ttl': { type: 'string' },
      'max-sessions': { type: 'string' },
      'log-retention': { type: 'string' },
    });
    const policyName = flags.policy ?? 'reference';
    if (!Object.hasOwn(policies, policyName)) {
      throw new UsageError(`unknown policy "${policyName}"; known policies: ${Object.keys(policies).join(', ')}`);
    }
    const port = integerFlag('port', flags.port, 0, 65535);
    const host = flags.host ?? '127.0.0.1';
    if (host === '') throw new UsageError('--host must not be empty');
    const limits = {
      sessionTtlMs: limitFlag('session-ttl', flags['session-ttl'], defaultSessionLimits.sessionTtlMs, 1000),
      maxSessions: limitFlag('max-sessions', flags['max-sessions'], defaultSessionLimits.maxSessions),
      retainedEvents: limitFlag('log-retention', flags['log-retention'], defaultSessionLimits.retainedEvents),
    };

    // Listen for signals before announcing the URL, so a stop right after the line is never missed.
    const stop = stopSignal();
    const server = await createReferenceServer({ policy: policyName, port, host, limits }).catch((error: unknown) => {
      stop.cancel();
      throw error;
    });
    console.log(`${server.url}/mcp`);
    console.error(
      `serving policy ${policyName} at ${server.url}/mcp (streamable HTTP) and ${server.url}/sse (HTTP+SSE); check it with: mcp-resume-spec check --url ${server.url}/mcp; stop with Ctrl-C`,
    );
    await stop.received;
    await server.close();
    return 0;
  },
};
