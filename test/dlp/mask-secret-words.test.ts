// What `gw mcp list` (and the console's MCP page through it) shows of a local server's command
// line: the words the built-in DLP rules take for secrets are masked, the rest stays readable.
import { describe, expect, it } from 'vitest';
import { maskSecretWords } from '../../src/dlp/mask-secret-words.js';

const GITHUB_TOKEN = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2).slice(0, 36)}`;
const ANTHROPIC_KEY = `sk-ant-api03-${'x'.repeat(80)}AA`;

describe('maskSecretWords', () => {
  it('masks a token given as its own word and as a --flag=value, keeping the flag', () => {
    const shown = maskSecretWords(['npx', '-y', 'some-mcp-server', '--token', GITHUB_TOKEN, `--api-key=${ANTHROPIC_KEY}`]);
    expect(shown).toEqual(['npx', '-y', 'some-mcp-server', '--token', '***', '--api-key=***']);
    expect(shown.join(' ')).not.toContain(GITHUB_TOKEN);
  });

  it('hides a URL\'s password and leaves an ordinary command line as it is', () => {
    expect(maskSecretWords(['server', 'https://bob:hunter2@db.example.com/x'])).toEqual(['server', 'https://bob:***@db.example.com/x']);
    const plain = ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/srv/data'];
    expect(maskSecretWords(plain)).toEqual(plain);
  });
});
