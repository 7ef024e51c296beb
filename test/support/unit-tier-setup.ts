// The unit project's setup file (vitest.config.ts): every unit test file runs with the guard
// installed; the e2e project (test/e2e/) has none.
import { installUnitTierGuard } from './unit-tier-guard.js';

installUnitTierGuard();
