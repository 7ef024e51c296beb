// Roles (issue 40): the decisions the hub takes before any admin handler runs, and the role a
// token or an OIDC group gives.
import { describe, expect, it } from 'vitest';
import { principalOf, refuseAccess, refuseCommand, teamOfScope, type Principal } from '../../src/admin/admin-role.js';
import { addAdminToken } from '../../src/state/admin-tokens.js';
import { parseRoleGroups, formatRoleGroups, verifyRoleGroups } from '../../src/state/role-groups.js';
import { emptyState, type StateData } from '../../src/state/schema.js';
import { adminOfGrant } from '../../src/server/console-oidc.js';

function state(): StateData {
  const data = emptyState();
  data.teams.push({ name: 'eng', created_at: '' }, { name: 'ml', created_at: '' });
  data.people.push({ email: 'ann@example.com', team: 'eng', created_at: '' }, { email: 'bo@example.com', team: 'ml', created_at: '' });
  data.keys.push({ id: 'vk_eng000000001', team: 'eng', name: null, hash: '', hint: '', created_at: '', expires_at: null, revoked_at: null });
  return data;
}

const admin: Principal = { role: 'admin', teams: [] };
const viewer: Principal = { role: 'viewer', teams: [] };
const lead: Principal = { role: 'team_admin', teams: ['eng'] };

describe('refuseAccess', () => {
  it('lets every role read', () => {
    for (const principal of [admin, viewer, lead]) expect(refuseAccess(principal, 'read', () => null)).toBeNull();
  });
  it('keeps admin routes to admins', () => {
    expect(refuseAccess(admin, 'admin', () => null)).toBeNull();
    expect(refuseAccess(viewer, 'admin', () => null)).toMatch(/viewer only reads/);
    expect(refuseAccess(lead, 'admin', () => null)).toMatch(/only an admin/);
  });
  it('lets a team_admin change only their own teams', () => {
    expect(refuseAccess(lead, 'team', () => 'eng')).toBeNull();
    expect(refuseAccess(lead, 'team', () => 'ml')).toMatch(/not ml/);
    expect(refuseAccess(lead, 'team', () => null)).toMatch(/own teams/);
    expect(refuseAccess(viewer, 'team', () => 'eng')).toMatch(/viewer/);
  });
});

describe('refuseCommand', () => {
  const run = (argv: string[], changes = true) => ({ argv, action: `${argv[0]}.${argv[1]}`, changes });
  it('lets a team_admin set their team\'s budgets and policies, by team, key or person', () => {
    expect(refuseCommand(lead, state(), run(['budgets', 'set', 'team:eng', '--amount', '5']))).toBeNull();
    expect(refuseCommand(lead, state(), run(['policy', 'set', 'key:vk_eng000000001', '--rpm', '5']))).toBeNull();
    expect(refuseCommand(lead, state(), run(['budgets', 'remove', 'person:ann@example.com']))).toBeNull();
  });
  it('refuses another team, the global scope, a second scope of another team, and hub-wide commands', () => {
    expect(refuseCommand(lead, state(), run(['budgets', 'set', 'team:ml', '--amount', '5']))).toMatch(/not ml/);
    expect(refuseCommand(lead, state(), run(['policy', 'set', '*', '--rpm', '5']))).not.toBeNull();
    expect(refuseCommand(lead, state(), run(['policy', 'set', 'team:eng', 'team:ml']))).not.toBeNull();
    expect(refuseCommand(lead, state(), run(['providers', 'add', 'x']))).toMatch(/only an admin/);
  });
  it('lets a viewer run reads only', () => {
    expect(refuseCommand(viewer, state(), run(['policy', 'list'], false))).toBeNull();
    expect(refuseCommand(viewer, state(), run(['policy', 'set', 'team:eng']))).toMatch(/viewer/);
  });
  it('reads a scope\'s team', () => {
    expect(teamOfScope(state(), 'team:eng')).toBe('eng');
    expect(teamOfScope(state(), 'team:nope')).toBeNull();
    expect(teamOfScope(state(), 'person:BO@example.com')).toBe('ml');
  });
});

describe('admin tokens with roles', () => {
  it('makes a team_admin token for existing teams, and reads an old token as an admin', () => {
    const draft = state();
    const { record } = addAdminToken(draft, { name: 'lead', createdBy: 't', now: new Date(0), role: 'team_admin', teams: ['eng'] });
    expect(principalOf(record)).toEqual({ role: 'team_admin', teams: ['eng'] });
    const { record: old } = addAdminToken(draft, { name: 'old', createdBy: 't', now: new Date(0) });
    expect(principalOf({ ...old, role: undefined })).toEqual({ role: 'admin', teams: [] });
  });
  it('refuses a team_admin without teams, an unknown team, teams on a viewer and an unknown role', () => {
    const draft = state();
    expect(() => addAdminToken(draft, { name: 'x', createdBy: 't', now: new Date(0), role: 'team_admin' })).toThrow(/at least one team/);
    expect(() => addAdminToken(draft, { name: 'x', createdBy: 't', now: new Date(0), role: 'team_admin', teams: ['nope'] })).toThrow(/no team "nope"/);
    expect(() => addAdminToken(draft, { name: 'x', createdBy: 't', now: new Date(0), role: 'viewer', teams: ['eng'] })).toThrow(/only a team_admin/);
    expect(() => addAdminToken(draft, { name: 'x', createdBy: 't', now: new Date(0), role: 'owner' })).toThrow(/role is one of/);
  });
});

describe('role_groups and OIDC sessions', () => {
  it('parses, formats and verifies the setting', () => {
    const groups = parseRoleGroups('gw-viewers=viewer, eng-leads=team_admin:eng+ml');
    expect(groups).toEqual([{ group: 'gw-viewers', role: 'viewer', teams: [] }, { group: 'eng-leads', role: 'team_admin', teams: ['eng', 'ml'] }]);
    expect(formatRoleGroups(groups)).toBe('gw-viewers=viewer,eng-leads=team_admin:eng+ml');
    expect(verifyRoleGroups(parseRoleGroups('x=team_admin:nope'), state())).toMatch(/nope/);
    expect(() => parseRoleGroups('x=owner')).toThrow(/role_groups/);
    expect(() => parseRoleGroups('x=team_admin')).toThrow(/role_groups/);
  });
  it('gives a session the role of its group now, and none once the group is gone', () => {
    const settings = { ...state().settings, admin_group: 'gw-admins', role_groups: parseRoleGroups('leads=team_admin:eng,readers=viewer') };
    expect(adminOfGrant(settings, { email: 'a@example.com', group: 'gw-admins' })?.role).toBe('admin');
    expect(adminOfGrant(settings, { email: 'a@example.com', group: 'leads' })).toMatchObject({ role: 'team_admin', teams: ['eng'] });
    expect(adminOfGrant(settings, { email: 'a@example.com', group: 'readers' })?.role).toBe('viewer');
    expect(adminOfGrant({ ...settings, role_groups: [] }, { email: 'a@example.com', group: 'readers' })).toBeNull();
  });
});
