// The shutdown order of gw serve is the list in shutdown-steps.ts, whatever order the parts were opened in.
import { describe, expect, it } from 'vitest';
import { SHUTDOWN_ORDER, ShutdownSteps } from '../../src/gateway/shutdown-steps.js';

describe('ShutdownSteps', () => {
  it('runs the registered steps in SHUTDOWN_ORDER, not in the order they were added', async () => {
    const ran: string[] = [];
    const steps = new ShutdownSteps();
    for (const step of ['state', 'event-loop sampler', 'audit trail', 'admin outbox drain', 'witness drain'] as const) {
      steps.add(step, async () => { ran.push(step); });
    }
    await steps.run(() => undefined);
    expect(ran).toEqual(['admin outbox drain', 'audit trail', 'witness drain', 'state', 'event-loop sampler']);
    expect(ran).toEqual(SHUTDOWN_ORDER.filter((step) => ran.includes(step)));
  });

  it('reports a failing step and still runs the ones after it', async () => {
    const ran: string[] = [];
    const failures: string[] = [];
    const steps = new ShutdownSteps();
    steps.add('audit trail', async () => { throw new Error('disk full'); });
    steps.add('state', async () => { ran.push('state'); });
    await steps.run((step, error) => failures.push(`${step}: ${(error as Error).message}`));
    expect(failures).toEqual(['audit trail: disk full']);
    expect(ran).toEqual(['state']);
  });
});
