// `gw run claude` with no claude on the PATH (issue 30, deliverable 5): it uses the one
// gw's own setup installed (scripts/ensure-coding-tools.sh: $GW_CODING_TOOLS_DIR or
// ~/.cache/gw/coding-tools), and otherwise prints the one command that installs it,
// before starting any gateway. The "installed" tool here is a small executable script
// that writes what gw run handed it: what is tested is gw finding and launching it.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayJar } from '../helpers.js';
import { makeHome, runGw } from '../../support/gateway-process.js';

const jar = new GatewayJar();
afterAll(async () => { await jar.stopAll(); });

describe('gw run finds the coding tools gw installed', () => {
  it('runs claude from $GW_CODING_TOOLS_DIR when it is not on the PATH', async () => {
    const gateway = await jar.start();
    const tools = await makeHome('gw-coding-tools-');
    const bin = path.join(tools, 'node_modules', '.bin');
    await mkdir(bin, { recursive: true });
    const said = path.join(tools, 'said.txt');
    await writeFile(path.join(bin, 'claude'), `#!/bin/sh\necho "base=$ANTHROPIC_BASE_URL args=$*" > '${said}'\n`);
    await chmod(path.join(bin, 'claude'), 0o755);
    const emptyPath = await makeHome('gw-empty-path-');
    const run = await runGw(['run', 'claude', '-p', 'hi'], { env: { GW_HOME: gateway.home, PATH: emptyPath, GW_URL: gateway.url, GW_CODING_TOOLS_DIR: tools } });
    expect(run.code, run.stderr).toBe(0);
    const written = await readFile(said, 'utf8');
    expect(written).toContain(`base=${gateway.url}`);
    expect(written).toContain('-p hi');
  }, 60_000);

  it('otherwise prints the one command that installs it, and starts no gateway', async () => {
    const home = await makeHome();
    const emptyPath = await makeHome('gw-empty-path-');
    const nowhere = await makeHome('gw-no-tools-');
    for (const [tool, install] of [['claude', 'npm install -g @anthropic-ai/claude-code'], ['codex', 'npm install -g @openai/codex'], ['gemini', 'npm install -g @google/gemini-cli'], ['opencode', 'npm install -g opencode-ai']]) {
      const run = await runGw(['run', tool!], { env: { GW_HOME: home, PATH: emptyPath, GW_URL: 'http://127.0.0.1:9', GW_CODING_TOOLS_DIR: nowhere } });
      expect(run.code).toBe(127);
      expect(run.stderr).toContain(`${tool} is not installed`);
      expect(run.stderr).toContain(install);
      expect(run.stderr).not.toContain('started gw serve');
    }
  }, 60_000);
});
