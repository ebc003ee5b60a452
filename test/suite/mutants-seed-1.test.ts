/** The exact catalog (see ./mutant-catalog.ts) for the mutants `npm test` checks with seed 1. */
import { expect, test } from 'vitest';
import { catalogSeeds } from '../../src/check-server/mutants/found.js';
import { mutants } from '../../src/check-server/mutants/index.js';
import { describeCatalogWith, mutantsCheckedWith } from './mutant-catalog.js';

test('the catalog has three seeds, and npm test checks every mutant with one of them', () => {
  expect(catalogSeeds).toHaveLength(3);
  const checked = catalogSeeds.flatMap((seed) => mutantsCheckedWith(seed).map((m) => m.name));
  expect(checked.sort()).toEqual(mutants.map((m) => m.name).sort());
});

describeCatalogWith(1);
