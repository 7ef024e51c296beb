// `gw providers add vllm --kind openai …` (a vLLM, not OpenAI's URL) answers only vllm/MODEL
// and says so, with how to give it OpenAI's bare names (issue 40); given them with --takes on a
// sidecar, it takes them from the hub that answered them: the command says so, and how to keep
// them where they were (issue 30, deliverable 5). The real CLI; GW_TOKEN and GW_HUB
// make the home a sidecar's, as `gw serve` reads them (no hub is contacted).
import { describe, expect, it } from 'vitest';
import { makeHome, runGw } from '../../support/gateway-process.js';

describe('gw providers add', () => {
  it('a --kind openai provider at another host takes only its own name, and says how to give it more', async () => {
    const home = await makeHome();
    const env = { GW_TOKEN: 'atu-CANARYtoken', GW_HUB: 'http://127.0.0.1:9' };
    const added = await runGw(['providers', 'add', 'vllm', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1'], { home, env });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('vllm takes vllm/MODEL only; bare gpt-…, o1, o3, o4, chatgpt-…, text-embedding-… names stay where they were '
      + '(to give them to vllm: --takes \'gpt-*,o1,o3,o4,chatgpt-*,text-embedding-*\')');
    expect(added.stderr).not.toContain('now route to');
  }, 30_000);

  it('warns when the new provider takes over model names another provider answered', async () => {
    const home = await makeHome();
    const env = { GW_TOKEN: 'atu-CANARYtoken', GW_HUB: 'http://127.0.0.1:9' };
    const added = await runGw(['providers', 'add', 'vllm', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--takes', 'gpt-*,o3'], { home, env });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('vllm takes vllm/MODEL and the bare model names gpt-…, o3\n');
    expect(added.stderr).toMatch(/model names gpt-…, o3 now route to vllm instead of the hub/);
    expect(added.stderr).toContain('--takes none');
    expect(added.stderr).not.toContain('CANARY');
    // Anthropic's and Google's names stay with the hub: not mentioned.
    expect(added.stderr).not.toContain('claude-');
  }, 30_000);

  it('says nothing when no names change hands (an openai-compatible provider, or a second --kind openai at OpenAI\'s URL)', async () => {
    const home = await makeHome();
    const added = await runGw(['providers', 'add', 'local', '--kind', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1'], { home, env: { GW_TOKEN: 'atu-CANARYtoken', GW_HUB: 'http://127.0.0.1:9' } });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).not.toContain('now route to');
    const standalone = await makeHome();
    const env = { OPENAI_API_KEY: 'sk-proj-test-key-not-used' };
    const second = await runGw(['providers', 'add', 'work', '--kind', 'openai', '--api-key', 'sk-proj-second-account-key'], { home: standalone, env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('now route to');
    expect(second.stdout).toContain('work takes work/MODEL only');
    const invalid = await runGw(['providers', 'add', 'x', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--takes', 'llama-*'], { home: standalone, env });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('invalid --takes "llama-*"');
  }, 30_000);
});
