// Roles on the hub (issue 40): what an admin credential may do. admin: everything; team_admin:
// read like a viewer, and change their teams' people, keys, personal tokens, device approvals,
// budgets and policies; viewer: read only. Each admin route declares its access in the route
// table (admin-api.ts); the server asks here before any handler runs, so no page or client
// reaches a change its role does not allow. Pure: decisions over the state and the request.
import type { AdminRole, AdminTokenRecord } from '../state/admin-tokens.js';
import type { StateData } from '../state/schema.js';

export interface Principal {
  role: AdminRole;
  /** A team_admin's teams; empty for the other roles. */
  teams: readonly string[];
}

/**
 * read: every role (a GET, or a POST that only reads, such as a verification); admin: admins only;
 * team: admins, and a team_admin whose team the target belongs to (the route says which team that is).
 */
export type RouteAccess = 'read' | 'admin' | 'team';

/** Team-scoped changes a team_admin may run as remote commands, by scope (team:, key:, person:). */
const TEAM_COMMANDS = new Set(['policy.set', 'policy.remove', 'budgets.set', 'budgets.remove']);

export function principalOf(admin: AdminTokenRecord): Principal {
  const role = admin.role ?? 'admin';
  return { role, teams: role === 'team_admin' ? admin.teams ?? [] : [] };
}

/** Why this principal may not use a route of this access on this target team, or null when it may. */
export function refuseAccess(principal: Principal, access: RouteAccess, team: () => string | null): string | null {
  if (principal.role === 'admin' || access === 'read') return null;
  if (principal.role === 'viewer') return 'a viewer only reads';
  if (access === 'admin') return 'only an admin may do this (a team_admin changes their own teams\' people, keys, budgets and policies)';
  const target = team();
  if (target !== null && principal.teams.includes(target)) return null;
  return `a team_admin changes only their own teams (${principal.teams.join(', ')})${target === null ? '' : `, not ${target}`}`;
}

/** The team a scope (`team:NAME`, `key:vk_…`, `person:EMAIL`) belongs to; null for `*` or an unknown one. */
export function teamOfScope(state: StateData, scope: string): string | null {
  const [kind = '', ...rest] = scope.split(':');
  const name = rest.join(':');
  if (kind === 'team') return state.teams.some((team) => team.name === name) ? name : null;
  if (kind === 'key') return teamOfKey(state, name);
  if (kind === 'person') return teamOfPerson(state, name);
  return null;
}

export function teamOfKey(state: StateData, id: string): string | null {
  return state.keys.find((key) => key.id === id)?.team ?? null;
}

export function teamOfPerson(state: StateData, email: string): string | null {
  const wanted = email.trim().toLowerCase();
  return state.people.find((person) => person.email === wanted)?.team ?? null;
}

export function teamOfPersonalToken(state: StateData, id: string): string | null {
  const token = state.tokens.find((candidate) => candidate.id === id);
  return token ? teamOfPerson(state, token.person) : null;
}

/** Why this principal may not run this remote command (`policy set team:eng …`), or null. */
export function refuseCommand(principal: Principal, state: StateData, command: { argv: readonly string[]; action: string; changes: boolean }): string | null {
  if (!command.changes) return null;
  const access: RouteAccess = TEAM_COMMANDS.has(command.action) ? 'team' : 'admin';
  // The scope is the first argument; any other scope-shaped argument must be of the same team.
  const [scope = '', ...others] = command.argv.slice(2).filter((argument, index) => index === 0 || /^(team|key|person):/.test(argument));
  const team = teamOfScope(state, scope);
  return refuseAccess(principal, access, () => (others.every((other) => teamOfScope(state, other) === team) ? team : null));
}
