/**
 * What `check --url` means. The primary form is the streamable HTTP endpoint itself
 * (`http://127.0.0.1:3000/mcp`), as the official conformance tool and the Inspector take it; the
 * legacy endpoints then default to `sse` and `messages` beside it (`/sse`, `/messages` here, or
 * `/api/sse` for `/api/mcp`). A URL without a path is a base URL, under which the endpoints default
 * to `/mcp`, `/sse` and `/messages`. Given `--mcp PATH`, the URL is a base URL whatever its path,
 * as before this form existed. `--sse` and `--messages` override the legacy endpoints either way.
 * A URL ending in the legacy stream's own name (`/sse`, with no `--mcp` or `--sse`) names that
 * endpoint, a common slip: the streamable endpoint is then taken as `/mcp` beside it, and a note says so.
 *
 * An endpoint the user named (the URL's path, `--mcp`, `--sse`) must answer `initialize`: the other
 * transport answering is not enough (`named`). Under a base URL either transport may be missing.
 */
import type { Transport } from '../../model/transport.js';
import type { Endpoint } from '../../properties/history.js';
import { UsageError } from './command.js';

/** A candidate's location, as the suite takes it. */
export interface TargetLocation {
  /** The base URL the endpoint paths are resolved against, without a trailing slash. */
  base: string;
  /** Every endpoint's path under `base`. */
  paths: Record<Endpoint, string>;
  /** The streamable HTTP endpoint, in full: what `serve` prints and `--url` takes. */
  endpoint: string;
  /** How the URL was read, when not as given (the legacy endpoint named instead of the streamable one). */
  note?: string;
  /** The transports whose endpoint the URL or an endpoint flag names: each must answer `initialize`. */
  named: Transport[];
}

/** The transports whose endpoint flag was given: named, whatever the URL. */
export function namedByFlags(overrides: Partial<Record<Endpoint, string>>): Transport[] {
  return [...(overrides.mcp !== undefined ? ['streamable' as const] : []), ...(overrides.sse !== undefined ? ['sse' as const] : [])];
}

const defaultPaths: Record<Endpoint, string> = { mcp: '/mcp', sse: '/sse', messages: '/messages' };

/**
 * Parses `--url` together with the endpoint flags.
 *
 * @param text - the `--url` argument (or the URL an adapter's server answered with)
 * @param overrides - the paths given by `--mcp`, `--sse`, `--messages` (each starting with `/`)
 * @param source - what gave the URL, for messages (default `--url`)
 * @throws UsageError for anything but an `http:` or `https:` URL without credentials, query or fragment
 */
export function parseTargetUrl(text: string, overrides: Partial<Record<Endpoint, string>> = {}, source = '--url'): TargetLocation {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${source}: not a URL: ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${source}: only http:// and https:// candidates can be checked, got ${url.protocol}//`);
  if (url.username !== '' || url.password !== '') throw new UsageError(`${source}: credentials in the URL are not supported`);
  if (url.search !== '' || url.hash !== '')
    throw new UsageError(`${source}: a query or fragment is not supported, got ${JSON.stringify(url.search + url.hash)}`);

  const path = url.pathname;
  let basePath: string;
  let endpointPath: string | undefined;
  if (path === '/' || overrides.mcp !== undefined) {
    basePath = path.replace(/\/+$/, '');
  } else {
    // The last segment is the streamable endpoint (a trailing slash stays part of it).
    const cut = path.replace(/\/$/, '').lastIndexOf('/');
    basePath = path.slice(0, cut);
    endpointPath = path.slice(cut);
  }
  const base = url.origin + basePath;
  if (endpointPath?.replace(/\/$/, '') === defaultPaths.sse && overrides.sse === undefined) {
    // The legacy stream's endpoint, named where the streamable one belongs.
    const paths: Record<Endpoint, string> = { ...defaultPaths, ...overrides, sse: endpointPath };
    const endpoint = base + paths.mcp;
    return {
      base,
      paths,
      endpoint,
      named: ['sse', ...namedByFlags(overrides)],
      note: `${source} names the legacy HTTP+SSE endpoint ${url.origin + path}: checking it as such, and streamable HTTP at ${endpoint} beside it (it should name the streamable endpoint; if ${path} is your streamable HTTP endpoint, give the legacy one with --sse PATH)`,
    };
  }
  const paths: Record<Endpoint, string> = { ...defaultPaths, ...(endpointPath !== undefined ? { mcp: endpointPath } : {}), ...overrides };
  const named = namedByFlags(overrides);
  if (endpointPath !== undefined && !named.includes('streamable')) named.unshift('streamable');
  return { base, paths, endpoint: base + paths.mcp, named };
}
