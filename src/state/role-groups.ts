// The setting role_groups: which OIDC group gives a console sign-in which role, apart from
// admin_group (admins). `gw-viewers=viewer,eng-leads=team_admin:eng+ml`: a viewer group, and a
// group whose members run the teams eng and ml. Read on every call, so changing it changes the
// sessions it made at once.
import { StateInputError } from './state-errors.js';
import type { StateData } from './schema.js';
import type { RoleGroup } from './hub-schema.js';
import { isValidTeamName } from './team-name.js';


const GROUP = /^[\x21-\x7e]{1,256}$/;
const HOW = 'use GROUP=viewer or GROUP=team_admin:TEAM[+TEAM…], separated by commas, or none';

export function parseRoleGroups(text: string): RoleGroup[] {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'none') return [];
  return trimmed.split(',').map((entry) => parseRoleGroup(entry.trim()));
}

function parseRoleGroup(entry: string): RoleGroup {
  const separator = entry.lastIndexOf('=');
  const group = entry.slice(0, separator);
  const [role = '', teamText] = entry.slice(separator + 1).split(':');
  if (separator <= 0 || !GROUP.test(group)) throw new StateInputError(`invalid entry "${entry}" for role_groups: ${HOW}`);
  if (role === 'viewer' && teamText === undefined) return { group, role, teams: [] };
  const teams = (teamText ?? '').split('+');
  if (role === 'team_admin' && teams.every((team) => isValidTeamName(team))) return { group, role, teams: [...new Set(teams)] };
  throw new StateInputError(`invalid entry "${entry}" for role_groups: ${HOW}`);
}

export function formatRoleGroups(value: readonly RoleGroup[]): string {
  if (value.length === 0) return 'none';
  return value.map((entry) => (entry.role === 'viewer' ? `${entry.group}=viewer` : `${entry.group}=team_admin:${entry.teams.join('+')}`)).join(',');
}

export function isRoleGroups(value: unknown): value is RoleGroup[] {
  return Array.isArray(value) && value.every((entry: unknown) => typeof entry === 'object' && entry !== null
    && 'group' in entry && typeof entry.group === 'string' && 'role' in entry && (entry.role === 'viewer' || entry.role === 'team_admin')
    && 'teams' in entry && Array.isArray(entry.teams) && entry.teams.every((team: unknown) => typeof team === 'string'));
}

/** A team_admin group naming a team the hub does not have is refused, as a token's would be. */
export function verifyRoleGroups(value: readonly RoleGroup[], state: StateData): string | null {
  for (const entry of value) {
    const unknown = entry.teams.find((team) => !state.teams.some((known) => known.name === team));
    if (unknown !== undefined) return `role_groups: team "${unknown}" does not exist (see gw teams list)`;
  }
  return null;
}
