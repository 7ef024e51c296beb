// The e2e tier runs its files without isolation; its setup file fails a file that leaves state
// behind for the next one (test/support/e2e-file-guard.ts), and puts the environment and the
// working folder back.
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { findLeftovers, takeSnapshot } from './e2e-file-guard.js';

const NAME = 'GW_E2E_GUARD_PROBE';
const home = process.cwd();

afterEach(() => {
  Reflect.deleteProperty(process.env, NAME);
  process.chdir(home);
});

describe('the e2e file guard', () => {
  it('finds nothing when the file left the worker as it found it', () => {
    const before = takeSnapshot();
    process.env[NAME] = 'set for a moment';
    Reflect.deleteProperty(process.env, NAME);
    expect(findLeftovers(before)).toEqual([]);
  });

  it('names an environment variable a file set, without its value, and removes it', () => {
    const before = takeSnapshot();
    process.env[NAME] = 'sk-gw-secret-value';
    const leftovers = findLeftovers(before);
    expect(leftovers).toEqual([`environment variables changed: ${NAME}`]);
    expect(leftovers.join(' ')).not.toContain('sk-gw-secret-value');
    expect(process.env[NAME]).toBeUndefined();
  });

  it('puts back a variable a file changed or removed', () => {
    process.env[NAME] = 'first';
    const before = takeSnapshot();
    Reflect.deleteProperty(process.env, NAME);
    expect(findLeftovers(before)).toHaveLength(1);
    expect(process.env[NAME]).toBe('first');
  });

  it('names a working folder a file changed into, and changes back', () => {
    const before = takeSnapshot();
    process.chdir(os.tmpdir());
    const moved = process.cwd();
    expect(findLeftovers(before)).toEqual([`working folder changed to ${moved}`]);
    expect(process.cwd()).toBe(home);
  });
});
