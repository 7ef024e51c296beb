// The write half of StateStore, on its own so that the files read while parsing
// state.json (settings.ts, providers.ts) can also hold their writes without
// importing state-store.ts, which imports the parser: no cycle, even counting types.
import type { StateData } from './schema.js';

export interface StateUpdater {
  /** Applies `mutate` to a fresh copy read under the lock and writes it; `mutate` must be synchronous. */
  update<T>(mutate: (draft: StateData) => T): Promise<T>;
}
