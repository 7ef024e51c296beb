// `gw providers add vllm --kind openai …` on a sidecar takes OpenAI's bare model names
// (gpt-5, o3 …) from the hub that answered them: the command says so, and how to keep
// them where they were (issue 30, deliverable 5). The real CLI; GW_TOKEN and GW_HUB
// make the home a sidecar's, as `gw serve` reads them (no hub is contacted).
import { describe, expect, it } from 'vitest';
import { makeHome, runGw } from '../../support/gateway-process.js';

describe('gw providers add', () => {
  it('warns when the new provider takes over model names another provider answered', async () => {
    const home = await makeHome();
    const env = { GW_TOKEN: 'atu-CANARYtoken', GW_HUB: 'http://127.0.0.1:9' };
    const added = await runGw(['providers', 'add', 'vllm', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1'], { home, env });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toMatch(/model names gpt-…, o1, o3, o4, chatgpt-…, text-embedding-… now route to vllm instead of the hub/);
    expect(added.stderr).toContain('--kind openai-compatible');
    expect(added.stderr).not.toContain('CANARY');
    // Anthropic's and Google's names stay with the hub: not mentioned.
    expect(added.stderr).not.toContain('claude-');
  }, 30_000);

  it('says nothing when no names change hands (an openai-compatible provider, or a second --kind openai)', async () => {
    const home = await makeHome();
    const added = await runGw(['providers', 'add', 'local', '--kind', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1'], { home, env: { GW_TOKEN: 'atu-CANARYtoken', GW_HUB: 'http://127.0.0.1:9' } });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).not.toContain('now route to');
    const standalone = await makeHome();
    const env = { OPENAI_API_KEY: 'sk-proj-test-key-not-used' };
    const second = await runGw(['providers', 'add', 'vllm', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1'], { home: standalone, env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('now route to');
  }, 30_000);
});
