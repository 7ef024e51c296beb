// What `gw serve` closes when it stops (or when a start fails half-way), in one explicit order.
// Each part registers its step as it is opened; a stop runs the steps registered so far in
// SHUTDOWN_ORDER, whatever order they were opened in.
export const SHUTDOWN_ORDER = [
  // What still writes audit records goes first: the admin outbox drain, then the mode (hub, sidecar).
  'admin outbox drain',
  'mode',
  // The trail's last checkpoint is written at close; the sink sends what it covers, and the
  // witnesses get a short last try at it (and their cosignatures are kept) after that.
  'audit trail',
  'audit sink drain',
  'witness drain',
  'state',
  'shared stores',
  'upstream client',
  'shared counters',
  'resource ids',
  'tracing',
  'telemetry relay',
  'mcp servers',
  'trail source',
  'event-loop sampler',
] as const;

export type ShutdownStep = (typeof SHUTDOWN_ORDER)[number];

export class ShutdownSteps {
  private readonly steps = new Map<ShutdownStep, () => Promise<unknown>>();

  add(step: ShutdownStep, run: () => Promise<unknown>): void {
    this.steps.set(step, run);
  }

  /** Runs every registered step in SHUTDOWN_ORDER; a failing step is reported and the next one still runs. */
  async run(onError: (step: ShutdownStep, error: unknown) => void): Promise<void> {
    for (const step of SHUTDOWN_ORDER) {
      const run = this.steps.get(step);
      if (run) await run().catch((error: unknown) => onError(step, error));
    }
  }
}
