/** The exact catalog (see ./mutant-catalog.ts) for the mutants `npm test` checks with seed 2. */
import { describeCatalogWith } from './mutant-catalog.js';

describeCatalogWith(2);
