// People: the identities device login approves. A person belongs to one team; the
// data plane serves their personal token as that team (spec, Authentication).
import type { Person, StateData } from './schema.js';
import { StateInputError, StateRefusedError } from './state-errors.js';
import type { StateStore } from './state-store.js';
import { shellCommand } from '../shell-quote.js';

// Deliberately simple (RFC 5322 is not the point): one @, no spaces or control characters, a dot in the domain.
const EMAIL = /^[^\s@\p{Cc}]{1,64}@[^\s@\p{Cc}]{1,190}\.[^\s@\p{Cc}]{1,63}$/u;

/** Lowercased and trimmed, or a StateInputError saying what is expected. */
export function normalizeEmail(text: string): string {
  const email = text.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new StateInputError(`invalid email "${text}": use name@example.com`);
  return email;
}

export function isEmail(text: string): boolean {
  return EMAIL.test(text.trim().toLowerCase());
}

export async function addPerson(store: StateStore, emailText: string, team: string): Promise<Person> {
  const email = normalizeEmail(emailText);
  return store.update((draft) => {
    if (!draft.teams.some((candidate) => candidate.name === team)) {
      throw new StateRefusedError(`team "${team}" does not exist (create it with ${shellCommand(['gw', 'teams', 'create', team])})`);
    }
    if (draft.people.some((person) => person.email === email)) throw new StateRefusedError(`${email} is already a person of this hub`);
    const person: Person = { email, team, created_at: store.now().toISOString() };
    draft.people.push(person);
    return person;
  });
}

/** Removes the person and revokes every token they hold, in one write. */
export async function removePerson(store: StateStore, emailText: string): Promise<{ person: Person; revokedTokens: number }> {
  const email = normalizeEmail(emailText);
  return store.update((draft) => {
    const index = draft.people.findIndex((person) => person.email === email);
    if (index < 0) throw new StateRefusedError(`no person ${email} (see gw people list)`);
    const [person] = draft.people.splice(index, 1) as [Person];
    const now = store.now().toISOString();
    let revokedTokens = 0;
    for (const token of draft.tokens) {
      if (token.person !== email || token.revoked_at !== null) continue;
      token.revoked_at = now;
      revokedTokens += 1;
    }
    return { person, revokedTokens };
  });
}

/**
 * An OIDC sign-in's groups → the person's team (setting oidc_group_teams, `GROUP=TEAM` pairs, the
 * first pair whose group they have wins): adds them in that team when new, moves them when in
 * another. `null` when no pair matches (the person stays as the hub has them).
 */
export async function placeByGroups(store: StateStore, email: string, groups: readonly string[]): Promise<{ team: string; change: 'added' | 'moved' | null } | null> {
  return store.update((draft) => {
    const pair = draft.settings.oidc_group_teams.map((entry) => entry.split('=')).find(([group]) => group !== undefined && groups.includes(group));
    const team = pair?.[1];
    if (team === undefined) return null;
    if (!draft.teams.some((candidate) => candidate.name === team)) throw new StateRefusedError(`the group ${pair?.[0] ?? ''} maps to team "${team}", which does not exist on this hub`);
    const person = draft.people.find((candidate) => candidate.email === email);
    if (!person) {
      draft.people.push({ email, team, created_at: store.now().toISOString() });
      return { team, change: 'added' };
    }
    if (person.team === team) return { team, change: null };
    person.team = team;
    return { team, change: 'moved' };
  });
}

export function listPeople(state: StateData): Person[] {
  return [...state.people].sort((left, right) => left.email.localeCompare(right.email));
}
