// Keeps what the witnesses cosign, beside the trail: the home's audit/cosignatures.jsonl, or
// with --store the gw_audit_cosignatures table. Fed by the witness pusher (off the request
// path), one write at a time; a cosignature that is not of the checkpoint sent, or does not
// verify, is logged and dropped. A failed write is logged, not retried: the next checkpoint's
// cosignature vouches for every record before it.
import { appendCosignature, cosignatureFileOf } from '../audit/cosignature-file.js';
import { storedCosignatureOf, type Cosignature, type StoredCosignature } from '../audit/cosignature.js';
import type { SignedCheckpoint } from '../audit/checkpoint.js';

export type CosignatureSink = (stored: StoredCosignature) => Promise<void>;

export function fileCosignatureSink(home: string): CosignatureSink {
  const file = cosignatureFileOf(home);
  return (stored) => appendCosignature(file, stored);
}

export class CosignatureKeeper {
  private sink: CosignatureSink | null = null;
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly log: (message: string) => void, private readonly now: () => Date = () => new Date()) {}

  /** Set once the trail is open (before any witness target is added, so no answer comes earlier). */
  storeIn(sink: CosignatureSink): void {
    this.sink = sink;
  }

  keep(checkpoint: SignedCheckpoint, cosignature: Cosignature, witness: string): void {
    const stored = storedCosignatureOf(checkpoint, cosignature, witness, this.now().toISOString());
    if ('refused' in stored) {
      this.log(`audit witness ${witness}: ${stored.refused}; not kept`);
      return;
    }
    const sink = this.sink;
    if (sink === null) return;
    this.writes = this.writes.then(() => sink(stored)).catch((error: unknown) => {
      this.log(`audit witness ${witness}: cannot keep its cosignature of seq ${stored.seq}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** At stop, after the witnesses' last answers: the writes under way finish. */
  settle(): Promise<void> {
    return this.writes;
  }
}
