// What a remote command may take (src/cli/remote-allow-list.ts): the options listed per command,
// and no value that names the hub's environment or files, in any form.
import { describe, expect, it } from 'vitest';
import { refuseRemoteArguments } from '../../src/cli/remote-allow-list.js';
import { readRemoteCommand } from '../../src/cli/remote-commands.js';

describe('refuseRemoteArguments', () => {
  it.each([
    [['policy', 'set', 'team:eng', '--rpm', '60', '--allow-models', 'openai/*', '--deny-resources', 'file:///*']],
    [['providers', 'add', 'p', '--kind', 'openai', '--base-url=http://127.0.0.1:9/v1', '--api-key', 'sk-literal']],
    [['mcp', 'add', 'm', '--url', 'http://127.0.0.1:9/mcp', '--header', 'Authorization=Bearer literal']],
    [['mcp', 'test', 'm', '--json']],
    [['routes', 'add', 'r', '--target', 'p/m,key=literal', '--no-fallback']],
    [['budgets', 'set', 'person:ann@example.com', '--amount', '5']],
    [['settings', 'set', 'oidc_client_secret', 'none']],
    [['prices', 'set', 'p/m', '--per-image', '1024x1792/hd=0.12']],
    [['dlp', 'list', '--help']],
  ])('takes %j', (argv) => {
    expect(refuseRemoteArguments(argv)).toBeNull();
  });

  it.each([
    [['providers', 'add', 'p', '--kind', 'openai', '--api-key-env', 'OPENAI_API_KEY'], '--api-key-env names an environment variable'],
    [['providers', 'add', 'p', '--kind', 'openai', '--api-key-env=OPENAI_API_KEY'], '--api-key-env names an environment variable'],
    [['mcp', 'add', 'm', '--url', 'http://x', '--header-env', 'A=B'], '--header-env names an environment variable'],
    [['mcp', 'add', 'm', '--url', 'http://x', '--header', 'A=env:B'], '"env:"'],
    [['mcp', 'add', 'm', '--url', 'http://x', '--header=A=Env:B'], '"env:"'],
    [['routes', 'add', 'r', '--target', 'p/m,weight=2,key=env:K'], '"env:"'],
    [['settings', 'set', 'oidc_client_secret', 'env:OPENAI_API_KEY'], '"env:"'],
    [['providers', 'add', 'p', '--kind', 'openai', '--api-key', '@/etc/passwd'], '"@"'],
    [['mcp', 'add', 'm', '--command', 'id'], 'runs a program on the hub'],
    [['mcp', 'add', 'm', '--url', 'http://x', '--env', 'A=1'], '--env gives variables'],
    [['policy', 'list', '--home', '/srv'], '--home names something on the hub'],
    [['dlp', 'test', '--file=/etc/passwd'], '--file names something on the hub'],
    [['providers', 'list', '--store', 'postgres://db'], '--store names something on the hub'],
    [['providers', 'list', '--tls-cert', '/etc/ssl/key.pem'], '--tls-cert names something on the hub'],
    [['providers', 'list', '--ca-file', '/x'], '--ca-file names something on the hub'],
    [['providers', 'list', '--', '--home'], '"--"'],
    [['providers', 'add', 'p', '-k', 'openai'], '-k is not an option "providers add" takes remotely'],
    [['routes', 'list', '--verbose'], '--verbose is not an option "routes list" takes remotely'],
  ])('refuses %j', (argv, reason) => {
    expect(refuseRemoteArguments(argv)).toContain(reason);
  });

  it('the hub answers a refusal before anything runs: readRemoteCommand throws it', () => {
    expect(() => readRemoteCommand(['mcp', 'add', 'm', '--url', 'http://x', '--header', 'x-leak=env:OPENAI_API_KEY'])).toThrow('"env:"');
    expect(() => readRemoteCommand(['settings', 'set', 'oidc_client_secret', 'X'])).toThrow('oidc_client_secret can only be cleared');
  });
});
