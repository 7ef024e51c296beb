// The composition root hands the server a finished GatewayServices: nothing is filled in after buildServer.
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { startGateway } from '../../../src/gateway/start-gateway.js';
import { createLogger } from '../../../src/logger.js';
import { makeHome } from '../../support/gateway-process.js';

it('builds every service before the server: frozen, with the resource-id store and all /health components', async () => {
  const home = await makeHome('gw-root-');
  const logger = createLogger({ destination: new Writable({ write(_chunk, _encoding, done) { done(); } }) });
  const gateway = await startGateway({ home, host: '127.0.0.1', port: 0, env: {}, logger });
  try {
    expect(Object.isFrozen(gateway.services)).toBe(true);
    expect(() => Object.assign(gateway.services, { resourceIds: undefined })).toThrow(TypeError);
    expect(gateway.services.resourceIds).toBeDefined();
    const report = await (await fetch(`${gateway.url}/health`)).json() as { status: string; components: Record<string, { status: string; configured?: string[] }> };
    expect(report.status).toBe('ok');
    expect(Object.keys(report.components).sort()).toEqual(['audit', 'license', 'providers', 'state']);
    expect(report.components.providers?.configured).toContain('mock');
  } finally {
    await gateway.stop();
  }
});
