// Request bodies gw holds in memory (JSON, and the small bodies body-parsers.ts reads
// whole) are counted here, globally and per credential, so a flood of large bodies
// is refused (503 or 429, with retry-after) instead of growing the process until the
// kernel kills it. Bytes are taken at the door from content-length, or chunk by chunk
// for a chunked body, and given back when the response closes.
import { GatewayError } from '../../errors.js';

export interface BodyLimits {
  /** inflight_body_bytes: all callers together. */
  total: number;
  /** inflight_body_bytes_per_key: one credential. */
  perKey: number;
}

/** Seconds a refused caller is told to wait: held bodies are usually released within a call's time. */
const RETRY_AFTER_SECONDS = '1';

export class BodyBudget {
  private held = 0;
  private readonly byHolder = new Map<string, number>();

  /** Limits are read on every take, so a settings change applies to a running server. */
  constructor(private readonly limits: () => BodyLimits) {}

  get heldBytes(): number {
    return this.held;
  }

  /** Holds `bytes` more for `holder`, or returns the refusal (and holds nothing) when a cap would be passed. */
  take(holder: string, bytes: number): GatewayError | null {
    if (bytes <= 0) return null;
    const limits = this.limits();
    const mine = this.byHolder.get(holder) ?? 0;
    if (mine + bytes > limits.perKey) return new GatewayError('GW_ERR_KEY_MEMORY_BUSY', { headers: { 'retry-after': RETRY_AFTER_SECONDS } });
    if (this.held + bytes > limits.total) return new GatewayError('GW_ERR_SERVER_MEMORY_BUSY', { headers: { 'retry-after': RETRY_AFTER_SECONDS } });
    this.held += bytes;
    this.byHolder.set(holder, mine + bytes);
    return null;
  }

  give(holder: string, bytes: number): void {
    if (bytes <= 0) return;
    this.held = Math.max(0, this.held - bytes);
    const left = (this.byHolder.get(holder) ?? 0) - bytes;
    // Deleted at zero so the map holds only credentials with bodies in flight.
    if (left > 0) this.byHolder.set(holder, left);
    else this.byHolder.delete(holder);
  }

  /** One request's share: grows as its body arrives, released once (when its response closes). */
  openHold(holder: string): BodyHold {
    return new BodyHold(this, holder);
  }
}

export class BodyHold {
  private heldBytesCount = 0;
  private released = false;

  constructor(private readonly budget: BodyBudget, private readonly holder: string) {}

  get bytes(): number {
    return this.heldBytesCount;
  }

  take(bytes: number): GatewayError | null {
    // After release (the response has closed) nothing more is held for this request.
    if (this.released) return null;
    const refusal = this.budget.take(this.holder, bytes);
    if (refusal === null) this.heldBytesCount += bytes;
    return refusal;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.give(this.holder, this.heldBytesCount);
    this.heldBytesCount = 0;
  }
}
