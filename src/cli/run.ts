/**
 * The CLI's entry point: runs `main` on this process's arguments. `bin/mcp-resume-spec.js` runs its
 * compiled form from `dist/`; `npm run cli` and `npm start` run it from source through ts-node.
 */
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
