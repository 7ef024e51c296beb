// The SDK matrix imports the SDKs from GW_COMPAT_CLIENTS_DIR when npm run compat:latest sets
// it: from that folder's own modules, never silently from the repo's pinned ones.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSdks } from './compat-clients.js';
import { REPO_ROOT } from './compat-matrix.js';

const SDK_ENTRY = "export { default as OpenAI } from 'openai';\nexport { default as Anthropic } from '@anthropic-ai/sdk';\nexport { GoogleGenAI } from '@google/genai';\n";
const folders: string[] = [];

/** A clients folder holding sdks.mjs with `text`, under `parent`. */
function clientsFolder(parent: string, text: string): string {
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(path.join(parent, 'gw-compat-clients-'));
  folders.push(dir);
  writeFileSync(path.join(dir, 'sdks.mjs'), text);
  return dir;
}

/** A package in the folder's node_modules whose entry exports one class named `exportName` (the default export where that is 'default'). */
function fakePackage(dir: string, name: string, exportName: string): void {
  const home = path.join(dir, 'node_modules', name);
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(home, 'package.json'), JSON.stringify({ name, version: '99.0.0', type: 'module', exports: './index.js' }));
  const declaration = `class Scratch { static from = ${JSON.stringify(`${name} in the scratch folder`)}; }`;
  writeFileSync(path.join(home, 'index.js'), exportName === 'default' ? `${declaration}\nexport default Scratch;\n` : `${declaration}\nexport { Scratch as ${exportName} };\n`);
}

afterAll(() => { for (const dir of folders) rmSync(dir, { recursive: true, force: true }); });

describe('loadSdks', () => {
  it("imports the SDKs from the clients folder's own node_modules", async () => {
    const dir = clientsFolder(os.tmpdir(), SDK_ENTRY);
    fakePackage(dir, 'openai', 'default');
    fakePackage(dir, '@anthropic-ai/sdk', 'default');
    fakePackage(dir, '@google/genai', 'GoogleGenAI');
    const sdks = await loadSdks(dir);
    expect((sdks.OpenAI as unknown as { from: string }).from).toBe('openai in the scratch folder');
    expect((sdks.Anthropic as unknown as { from: string }).from).toBe('@anthropic-ai/sdk in the scratch folder');
    expect((sdks.GoogleGenAI as unknown as { from: string }).from).toBe('@google/genai in the scratch folder');
  });

  it("refuses a folder whose names resolve to the repo's pinned SDKs", async () => {
    // Inside the repo, the bare names find the repo's node_modules.
    const dir = clientsFolder(path.join(REPO_ROOT, 'test-results'), SDK_ENTRY);
    await expect(loadSdks(dir)).rejects.toThrow(/pinned SDKs/);
  });

  it('says what to run when the folder has no sdks.mjs, and loads the pinned SDKs without a folder', async () => {
    await expect(loadSdks(path.join(os.tmpdir(), 'gw-compat-nowhere'))).rejects.toThrow(/npm run compat:latest/);
    const pinned = await loadSdks(undefined);
    expect(pinned.OpenAI).toBe((await import('openai')).default);
  });
});
