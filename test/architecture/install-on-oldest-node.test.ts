// `npm install` must succeed on the oldest Node gw supports (engines.node in package.json), though
// some clients the tests drive (openai 7, @google/genai 3) declare Node >= 22: npm only warns
// (EBADENGINE) for a package whose engines.node excludes the running Node, unless engine-strict is
// set, and gw ships none of them (docs/testing.md, "Which Node").
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { admitsNode, REPO_ROOT } from '../support/compat-matrix.js';

interface LockEntry { dev?: boolean; engines?: { node?: string } | string[] }
interface Manifest { engines: { node: string }; devDependencies: Record<string, string> }

const manifest: Manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const lock: { packages: Record<string, LockEntry> } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8'));
const oldest = /^>=\s*(\d+\.\d+\.\d+)$/.exec(manifest.engines.node)?.[1] ?? '';

function nodeRange(entry: LockEntry): string | undefined {
  return entry.engines !== undefined && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
}

/** Locked packages whose engines.node leaves out gw's oldest Node, by name. */
function excluding(dev: boolean): string[] {
  return Object.entries(lock.packages)
    .filter(([where, entry]) => where !== '' && (entry.dev === true) === dev && admitsNode(nodeRange(entry), oldest) === false)
    .map(([where]) => where.replace(/^.*node_modules\//, ''));
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe(`npm install on gw's oldest Node (${manifest.engines.node})`, () => {
  it('reads the oldest Node from engines.node', () => {
    expect(oldest).toMatch(/^20\.\d+\.\d+$/);
  });

  it('every package gw ships with admits it', () => {
    expect(excluding(false)).toEqual([]);
  });

  it('the test clients that do not are devDependencies that src/ never imports', () => {
    const clients = excluding(true).filter((name) => name in manifest.devDependencies);
    expect(clients).toEqual(expect.arrayContaining(['@google/genai', 'openai']));
    const importers = sourceFiles(path.join(REPO_ROOT, 'src')).filter((file) => {
      const text = readFileSync(file, 'utf8');
      return clients.some((name) => text.includes(`from '${name}'`) || text.includes(`from '${name}/`) || text.includes(`import('${name}`));
    });
    expect(importers).toEqual([]);
  });

  it('nothing in the repository turns the EBADENGINE warning into a failure (engine-strict)', () => {
    const npmrc = path.join(REPO_ROOT, '.npmrc');
    const text = existsSync(npmrc) ? readFileSync(npmrc, 'utf8') : '';
    expect(text).not.toMatch(/^\s*engine-strict\s*=\s*true/m);
  });
});
