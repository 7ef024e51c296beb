// Teams own keys; every request is served under one team's identity.
import type { StateData, Team } from './schema.js';
import { StateRefusedError } from './state-errors.js';
import type { StateStore } from './state-store.js';
import { validateTeamName } from './team-name.js';

export async function createTeam(store: StateStore, name: string): Promise<Team> {
  validateTeamName(name);
  return store.update((draft) => addTeam(draft, name, store.now()));
}

/** The in-update half of createTeam; the duplicate check runs on the freshly read state. */
export function addTeam(draft: StateData, name: string, now: Date): Team {
  validateTeamName(name);
  if (draft.teams.some((team) => team.name === name)) throw new StateRefusedError(`team "${name}" already exists`);
  const team: Team = { name, created_at: now.toISOString() };
  draft.teams.push(team);
  return team;
}

export function listTeams(state: StateData): Team[] {
  return [...state.teams].sort((left, right) => left.name.localeCompare(right.name));
}
