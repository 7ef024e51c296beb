// The unit tier's rule (docs/testing.md): a unit test that starts a process or a server
// fails with an error naming the rule. This file runs in the unit project, so the guard
// from its setup file is installed here.
import * as childProcess from 'node:child_process';
import { execFile, fork, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';
import { PROCESS_STARTERS, UNIT_TIER_RULE, UnitTierError } from './unit-tier-guard.js';

describe('the unit tier guard', () => {
  it.each(PROCESS_STARTERS)('child_process.%s throws an error naming the rule', (name) => {
    const start = childProcess[name] as (...args: string[]) => unknown;
    expect(() => start(process.execPath, '--version')).toThrow(UnitTierError);
    expect(() => start(process.execPath, '--version')).toThrow(UNIT_TIER_RULE);
  });

  it('the named imports are guarded too (import { spawn } from node:child_process)', () => {
    expect(() => spawn(process.execPath, ['--version'])).toThrow(/child_process\.spawn\(\) called in a unit test: the unit tier starts no process and no server/);
    expect(() => execFile(process.execPath, ['--version'])).toThrow(UnitTierError);
    expect(() => fork('nothing.js')).toThrow(UnitTierError);
  });

  it('listening on a port throws, for net and http servers alike', () => {
    const server = net.createServer();
    expect(() => server.listen(0)).toThrow(/net\.Server\.listen\(\) called in a unit test: .*belongs in test\/e2e\//);
    expect(server.listening).toBe(false);
    expect(() => http.createServer().listen(0, '127.0.0.1')).toThrow(UnitTierError);
  });
});

describe('the tiers in vitest.config.ts', () => {
  const projects = (config.test?.projects ?? []).map((project) => project as { test: { name: string; include: string[]; exclude?: string[]; setupFiles?: string[] } });
  const byName = new Map(projects.map((project) => [project.test.name, project.test]));

  it('the unit project runs everything outside test/e2e/, with the guard in its setup file', () => {
    expect(byName.get('unit')).toMatchObject({ include: ['test/**/*.test.ts'], setupFiles: ['test/support/unit-tier-setup.ts'] });
    expect(byName.get('unit')?.exclude).toContain('test/e2e/**');
  });

  it('the e2e project runs test/e2e/ without the guard, each file in its own fork, with its own setup file that holds each file to leave nothing behind', () => {
    expect(byName.get('e2e')?.include).toEqual(['test/e2e/**/*.test.ts']);
    expect(byName.get('e2e')?.setupFiles).toEqual(['test/support/e2e-tier-setup.ts']);
    expect(byName.get('e2e')?.isolate).toBe(true);
    expect([...byName.keys()].sort()).toEqual(['e2e', 'unit']);
  });
});
