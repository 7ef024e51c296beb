import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { CliExit } from '../../../src/cli/cli-context.js';
import { isWellFormedVirtualKey } from '../../../src/state/virtual-keys.js';
import { makeCliHome, runGw } from '../../cli/run-state-command.js';
import { makeHome, runGw as runRealGw } from '../../support/gateway-process.js';

function exitCode(error: unknown): number | null {
  if (error instanceof CliExit) return error.exitCode;
  if (error instanceof CommanderError) return 2;
  return error === null ? 0 : null;
}

describe('gw teams', () => {
  it('creates and lists teams, as text and JSON', async () => {
    const home = await makeCliHome();
    expect((await runGw(['teams', 'create', 'ops'], home)).stdout).toBe('created team ops\n');
    await runGw(['teams', 'create', 'dev'], home);
    const text = await runGw(['teams', 'list'], home);
    expect(text.stdout.split('\n')[0]).toMatch(/^NAME\s+CREATED\s+KEYS$/);
    expect(text.stdout).toMatch(/^dev\s+\S+\s+0$/m);
    const json = JSON.parse((await runGw(['teams', 'list', '--json'], home)).stdout);
    expect(json.map((team: { name: string }) => team.name)).toEqual(['dev', 'ops']);
  });

  it('refuses a duplicate with exit 1 and a bad name with exit 2', async () => {
    const home = await makeCliHome();
    await runGw(['teams', 'create', 'ops'], home);
    const duplicate = await runGw(['teams', 'create', 'ops'], home);
    expect(exitCode(duplicate.error)).toBe(1);
    expect((duplicate.error as Error).message).toBe('team "ops" already exists');
    const bad = await runGw(['teams', 'create', 'Ops Team'], home);
    expect(exitCode(bad.error)).toBe(2);
    expect((bad.error as Error).message).toMatch(/^invalid team name "Ops Team"/);
  });

  it('honours --home over the default home', async () => {
    const home = await makeCliHome();
    const other = await makeCliHome();
    await runGw(['teams', 'create', 'ops', '--home', other], home);
    expect(JSON.parse((await runGw(['teams', 'list', '--json', '--home', other], home)).stdout)).toHaveLength(1);
    expect(JSON.parse((await runGw(['teams', 'list', '--json'], home)).stdout)).toHaveLength(0);
  });
});

describe('gw keys', () => {
  it('prints a new key alone on stdout, once, with the notice on stderr, and stores only its hash', async () => {
    const home = await makeCliHome();
    await runGw(['teams', 'create', 'ops'], home);
    const created = await runGw(['keys', 'create', '--team', 'ops', '--name', 'ci', '--expires', '30d'], home);
    expect(created.error).toBeNull();
    const key = created.stdout.trimEnd();
    expect(created.stdout).toBe(`${key}\n`);
    expect(isWellFormedVirtualKey(key)).toBe(true);
    expect(created.stderr).toMatch(/^created vk_\w{12} for team ops, expires \S+; store it now: it is shown only once\n$/);
    expect(await readFile(path.join(home, 'state.json'), 'utf8')).not.toContain(key);

    const listed = await runGw(['keys', 'list', '--json'], home);
    expect(listed.stdout).not.toContain(key);
    const [row] = JSON.parse(listed.stdout);
    expect(row).toMatchObject({ team: 'ops', name: 'ci', status: 'active', revoked_at: null });
    expect(row).not.toHaveProperty('hash');
    expect(row.hint).toBe(`sk-gw-${key.slice(6, 10)}…${key.slice(-4)}`);
    const days = (Date.parse(row.expires_at) - Date.parse(row.created_at)) / 86_400_000;
    expect(days).toBe(30);
  });

  it('lists as a table, filters by team and revokes by id', async () => {
    const home = await makeCliHome();
    await runGw(['teams', 'create', 'a'], home);
    await runGw(['teams', 'create', 'b'], home);
    await runGw(['keys', 'create', '--team', 'a'], home);
    await runGw(['keys', 'create', '--team', 'b'], home);
    const onlyB = JSON.parse((await runGw(['keys', 'list', '--team', 'b', '--json'], home)).stdout);
    expect(onlyB.map((row: { team: string }) => row.team)).toEqual(['b']);
    const revoked = await runGw(['keys', 'revoke', onlyB[0].id], home);
    expect(revoked.stdout).toBe(`revoked ${onlyB[0].id}\n`);
    const again = await runGw(['keys', 'revoke', onlyB[0].id], home);
    expect(again.stdout).toMatch(new RegExp(`^${onlyB[0].id} was already revoked at `));
    const table = (await runGw(['keys', 'list'], home)).stdout.split('\n');
    expect(table[0]).toMatch(/^ID\s+TEAM\s+NAME\s+HINT\s+CREATED\s+EXPIRES\s+STATUS$/);
    expect(table.find((line) => line.startsWith(onlyB[0].id))).toMatch(/\bb\s+-\s+sk-gw-\S+\s+\S+\s+never\s+revoked$/);
  });

  it('refuses an unknown team (1), an unknown id (1), a bad duration (2) and a missing --team (2)', async () => {
    const home = await makeCliHome();
    const unknownTeam = await runGw(['keys', 'create', '--team', 'ghost'], home);
    expect(exitCode(unknownTeam.error)).toBe(1);
    expect(unknownTeam.stdout).toBe('');
    expect(exitCode((await runGw(['keys', 'revoke', 'vk_nope'], home)).error)).toBe(1);
    await runGw(['teams', 'create', 'ops'], home);
    const badDuration = await runGw(['keys', 'create', '--team', 'ops', '--expires', 'soon'], home);
    expect(exitCode(badDuration.error)).toBe(2);
    expect((badDuration.error as Error).message).toMatch(/^invalid duration "soon"/);
    expect(exitCode((await runGw(['keys', 'create'], home)).error)).toBe(2);
    expect(JSON.parse((await runGw(['keys', 'list', '--json'], home)).stdout)).toEqual([]);
  });
});

describe('gw settings', () => {
  it('shows all settings, sets one and reads it back', async () => {
    const home = await makeCliHome();
    const all = await runGw(['settings', 'get'], home);
    expect(all.stdout).toMatch(/^enforce_auth\s+off$/m);
    expect(all.stdout).toMatch(/^body_limit_bytes\s+32MiB$/m);
    expect((await runGw(['settings', 'set', 'enforce_auth', 'on'], home)).stdout).toBe('enforce_auth = on\n');
    expect((await runGw(['settings', 'get', 'enforce_auth'], home)).stdout).toBe('on\n');
    expect((await runGw(['settings', 'get', 'enforce_auth', '--json'], home)).stdout).toBe('true\n');
    await runGw(['settings', 'set', 'body_limit_bytes', '1048576'], home);
    expect(JSON.parse((await runGw(['settings', 'get', '--json'], home)).stdout).body_limit_bytes).toBe(1_048_576);
  });

  it('refuses an unknown name (2), a bad value (2) and a missing default team (1)', async () => {
    const home = await makeCliHome();
    const unknown = await runGw(['settings', 'set', 'speed', 'fast'], home);
    expect(exitCode(unknown.error)).toBe(2);
    expect((unknown.error as Error).message).toContain('valid settings: enforce_auth, default_team');
    expect(exitCode((await runGw(['settings', 'get', 'speed'], home)).error)).toBe(2);
    expect(exitCode((await runGw(['settings', 'set', 'audit_fsync', 'sometimes'], home)).error)).toBe(2);
    const team = await runGw(['settings', 'set', 'default_team', 'ghost'], home);
    expect(exitCode(team.error)).toBe(1);
    expect((team.error as Error).message).toBe('cannot set default_team: team "ghost" does not exist (see gw teams list)');
  });
});

describe('a broken or unreachable home', () => {
  it('ends with one line and exit 1, never a stack trace', async () => {
    const home = await makeCliHome();
    await mkdir(home, { recursive: true });
    await writeFile(path.join(home, 'state.json'), '{"teams": [}');
    const broken = await runGw(['teams', 'list'], home);
    expect(broken.error).toBeInstanceOf(CliExit);
    expect(exitCode(broken.error)).toBe(1);
    expect((broken.error as Error).message).toBe(`state file ${path.join(home, 'state.json')} is not valid JSON (line 1): fix or move it away`);

    const unreachable = path.join(home, 'state.json', 'nested');
    const denied = await runGw(['keys', 'list', '--home', unreachable], home);
    expect(exitCode(denied.error)).toBe(1);
    expect((denied.error as Error).message).toBe(`cannot write ${unreachable}: a parent is not a folder`);
  });
});

describe('gw state export (the real gw binary)', () => {
  const LITERALS = ['sk-literal-export-key-0123', 'hunter2-url-password', 'mcp-literal-header-value', 'child-literal-variable', 'sk-route-literal-key-4567'];

  async function seededHome(): Promise<string> {
    const home = await makeHome('gw-export-');
    for (const argv of [
      ['providers', 'add', 'p1', '--kind', 'openai', '--base-url', 'http://user:hunter2-url-password@127.0.0.1:9/v1', '--api-key', 'sk-literal-export-key-0123'],
      ['providers', 'add', 'p2', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--api-key-env', 'P2_KEY'],
      ['mcp', 'add', 'docs', '--url', 'http://127.0.0.1:9/mcp', '--header', 'Authorization=Bearer mcp-literal-header-value', '--header-env', 'X-Team=DOCS_TEAM'],
      ['mcp', 'add', 'local', '--command', 'node server.js', '--env', 'TOKEN=child-literal-variable', 'REF=env:LOCAL_REF'],
      ['routes', 'add', 'spread', '--target', 'p1/gpt-4o,key=sk-route-literal-key-4567', '--target', 'p2/gpt-4o,key=env:SECOND_KEY'],
    ]) {
      const result = await runRealGw(argv, { home });
      expect(result.code, result.stderr).toBe(0);
    }
    return home;
  }

  it('without --with-secrets leaves every provider and server secret out, keeps env: references, and says what it left out', async () => {
    const home = await seededHome();
    const exported = await runRealGw(['state', 'export'], { home });
    expect(exported.code, exported.stderr).toBe(0);
    for (const literal of LITERALS) expect(exported.stdout + exported.stderr).not.toContain(literal);
    const body = JSON.parse(exported.stdout) as { left_out: string[]; state: { providers: Array<{ name: string; api_key: string | null; base_url: string }> } };
    expect(body.left_out).toEqual([
      'provider p1: api_key', 'provider p1: the password in base_url', 'MCP server docs: header Authorization',
      'MCP server local: variable TOKEN', 'route spread: the key of target p1/gpt-4o',
    ]);
    expect(exported.stderr).toContain('left out of the export (give --with-secrets to include them): provider p1: api_key;');
    expect(body.state.providers.find((provider) => provider.name === 'p1')).toMatchObject({ api_key: null, base_url: 'http://user@127.0.0.1:9/v1' });
    for (const reference of ['env:P2_KEY', 'env:DOCS_TEAM', 'env:LOCAL_REF', 'env:SECOND_KEY']) expect(exported.stdout).toContain(reference);
    // What it printed imports as it is: the secrets are given again afterwards.
    const copy = await makeHome('gw-export-copy-');
    await writeFile(path.join(copy, 'export.json'), exported.stdout);
    const imported = await runRealGw(['state', 'import', path.join(copy, 'export.json')], { home: copy });
    expect(imported.code, imported.stderr).toBe(0);
  }, 60_000);

  it('with --with-secrets keeps them all, and names nothing left out', async () => {
    const home = await seededHome();
    const exported = await runRealGw(['state', 'export', '--with-secrets'], { home });
    expect(exported.code, exported.stderr).toBe(0);
    for (const literal of LITERALS) expect(exported.stdout).toContain(literal);
    expect(exported.stdout).not.toContain('left_out');
    expect(exported.stderr).not.toContain('left out');
  }, 60_000);
});
