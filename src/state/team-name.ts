// Team names end up in audit records, metrics labels and URLs, so they stay plain.
import { StateInputError } from './state-errors.js';

const TEAM_NAME = /^[a-z0-9_-]{1,64}$/;

export function isValidTeamName(name: string): boolean {
  return TEAM_NAME.test(name);
}

/** Returns the name, or throws a StateInputError saying what is allowed. */
export function validateTeamName(name: string): string {
  if (isValidTeamName(name)) return name;
  throw new StateInputError(
    `invalid team name "${name}": use 1 to 64 lowercase letters, digits, "-" or "_"`,
  );
}
