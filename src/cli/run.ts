/**
 * The CLI's entry point: runs `main` on this process's arguments. `bin/mcp-resume-spec.js` runs its
 * compiled form from `dist/`; `npm run cli` and `npm start` run it from source through ts-node.
 */
import { lingerNote } from './linger.js';
import { main } from './main.js';

/** How long the process may stay up once the command is done, before it is ended. */
const lingerMs = 2_000;

process.exitCode = await main(process.argv.slice(2));
// The command is done and its reports written. Something a user's adapter started and never
// stopped (a socket, an interval) would keep the process up, and a CI job with it. Unref'd: a
// process with nothing left to do ends at once, as before.
setTimeout(() => {
  process.stderr.write(`${lingerNote(process.argv.slice(2), process.getActiveResourcesInfo(), lingerMs)}\n`);
  process.exit();
}, lingerMs).unref();
