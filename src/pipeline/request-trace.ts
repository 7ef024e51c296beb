// What the corridor learns about one call, for the record stage (audit record, log
// line, metrics): every stage notes what it learned through a method here, instead of
// writing into a shared object, and a relayed stream is tracked so the record waits
// for its last byte and its usage.
import type { AuditCost, AuditTokens, AuditValue } from '../audit/record.js';
import type { BudgetAdmission } from '../spend/budget-keeper.js';
import type { PricedTarget } from '../spend/price-ids.js';
import type { ImageVariant } from '../spend/unit-prices.js';
import type { CallSpan } from '../telemetry/call-tracer.js';
import type { DialectCodec } from '../canonical/codec.js';
import { RelayedOutput } from './relayed-output.js';
import type { DrainCancel } from './drain-cancel.js';

/** What the record stage reads. */
export interface TraceView {
  readonly model: string | null;
  /** The routing rule the caller named, when the call went through one. */
  readonly rule: string | null;
  /** What usage is reported under: the model named, or for a routing rule the `provider/model` of the target tried last. */
  readonly usageModel: string | null;
  readonly provider: string | null;
  readonly tokens: AuditTokens | null;
  /** The provider and model last tried (what a cost is priced as). */
  readonly target: PricedTarget | null;
  /** The call's cost, once priced (src/pipeline/relay/price-call.ts). */
  readonly cost: AuditCost | null;
  /** The size and quality of the images a call made, which image prices may depend on. */
  readonly image: ImageVariant | null;
  /** What budgets hold for this call, settled by the record stage (src/pipeline/plan/hold-budget.ts). */
  readonly budget: BudgetAdmission | null;
  readonly outcome: readonly string[];
  /** Translation warnings and other notes (what one side could not express), by code. */
  readonly warnings: readonly string[];
  /** DLP rule id → matches in this call (never the matched text). */
  readonly dlp: Readonly<Record<string, number>> | undefined;
  /** Extra audit payload: routing attempts, a direct key's fingerprint, unscanned uploads. */
  readonly data: Readonly<Record<string, AuditValue>>;
  readonly bytesOut: number | null;
  /** Time spent waiting on the provider, so gw's own overhead can be told apart. */
  readonly upstreamNanos: bigint;
  /** The client has been handed its stream's final event: a hang-up after that is not a disconnect. */
  readonly finished: boolean;
  /** Resolves when a tracked stream has ended (its bytes and usage are known); null when none is. */
  readonly settled: Promise<void> | null;
}

export class RequestTrace implements TraceView {
  model: string | null = null;
  rule: string | null = null;
  private ruleTarget: string | null = null;
  provider: string | null = null;
  tokens: AuditTokens | null = null;
  target: PricedTarget | null = null;
  cost: AuditCost | null = null;
  image: ImageVariant | null = null;
  /** A finished batch's usage, recorded on this retrieval: priced as its model, at the batch price. */
  batch = false;
  budget: BudgetAdmission | null = null;
  readonly outcome: string[] = [];
  readonly warnings: string[] = [];
  dlp: Record<string, number> | undefined = undefined;
  readonly data: Record<string, AuditValue> = {};
  bytesOut: number | null = null;
  upstreamNanos = 0n;
  finished = false;
  settled: Promise<void> | null = null;
  /** For the stream first-byte histograms: when the last attempt was sent, its first body byte came, and the client's first byte left. */
  upstreamSentAt: bigint | null = null;
  upstreamFirstByteAt: bigint | null = null;
  clientFirstByteAt: bigint | null = null;
  /** This call's OpenTelemetry span (src/telemetry/), when tracing is on. */
  span: CallSpan | null = null;
  /** What the relayed stream handed the client, kept only while budgets apply (src/pipeline/relay/relayed-output.ts). */
  relayed: RelayedOutput | null = null;
  /** The tokens are gw's estimate of a call whose usage never came in full (src/pipeline/record/settle-cut-call.ts). */
  usageEstimated = false;
  /** A stream's upstream cancel signal, which the relay holds open once the answer is complete (drain-cancel.ts). */
  upstreamDrain: DrainCancel | null = null;
  /** The provider's usage was read after the client hung up with its answer complete. */
  usageAfterHangUp = false;
  /** A held media call's fields (its JSON body, or its form as read on the way up), for the estimate of a cut one. */
  requestFields: Readonly<Record<string, unknown>> | null = null;

  noteModel(model: string | null): void { this.model = model; }

  /** A routing rule's target is tried: usage is reported under the model it names (`provider/model`), the rule beside it. */
  noteRule(rule: string, servedBy: string): void {
    this.rule = rule;
    this.ruleTarget = servedBy;
  }

  get usageModel(): string | null { return this.ruleTarget ?? this.model; }

  noteProvider(name: string, target?: PricedTarget): void {
    this.provider = name;
    this.target = target ?? null;
  }

  noteCost(cost: AuditCost): void { this.cost = cost; }

  noteBatch(model: string): void {
    this.batch = true;
    if (this.target) this.target = { ...this.target, model };
    this.model ??= model;
  }

  noteBudget(admission: BudgetAdmission): void { this.budget = admission; }

  /** A multipart call's model, read from its form on the way up (gw routes it without one): what it is recorded and priced as. */
  noteFormModel(model: string): void {
    this.model ??= model;
    if (this.target && this.target.model === '') this.target = { ...this.target, model };
  }

  noteImage(image: ImageVariant): void {
    this.image = image;
    this.data.image = { ...image };
  }

  noteUsage(tokens: AuditTokens | null): void { this.tokens = tokens; }

  noteUpstreamDrain(drain: DrainCancel): void { this.upstreamDrain = drain; }

  noteUsageAfterHangUp(): void { this.usageAfterHangUp = true; }

  noteEstimatedUsage(tokens: AuditTokens): void {
    this.tokens = tokens;
    this.usageEstimated = true;
  }

  noteRequestFields(fields: Readonly<Record<string, unknown>>): void { this.requestFields = fields; }

  /** A keeper of the relayed output when a budget holds this call (else nothing is kept: no work when budgets are off). */
  relayOutput(codec: Pick<DialectCodec, 'createStreamDecoder' | 'streamFraming'> | null): RelayedOutput | undefined {
    if (!this.budget) return undefined;
    this.relayed = new RelayedOutput(codec);
    return this.relayed;
  }

  noteWarning(code: string, options: { once?: boolean } = {}): void {
    if (options.once && this.warnings.includes(code)) return;
    this.warnings.push(code);
  }

  noteOutcome(code: string): void { this.outcome.push(code); }

  noteDlp(ruleId: string, matches = 1): void {
    this.dlp = { ...this.dlp, [ruleId]: (this.dlp?.[ruleId] ?? 0) + matches };
  }

  /** A DLP match and where it was (`body`, `model`, `path`, `query`, `header:<name>`): counted, and the place kept for the record (never the text). */
  noteDlpFinding(ruleId: string, place: string, matches = 1): void {
    this.noteDlp(ruleId, matches);
    const findings = (this.data.dlp_findings ??= []) as Array<{ rule: string; place: string }>;
    if (!findings.some((finding) => finding.rule === ruleId && finding.place === place)) findings.push({ rule: ruleId, place });
  }

  /**
   * What DLP made of the URL (path and query): `withheld` when it matched something there,
   * so the record stage logs the route's pattern instead of the path the client called;
   * `unscanned` when no rule ran (the record stage then checks the path itself).
   */
  url: 'unscanned' | 'clean' | 'withheld' = 'unscanned';

  noteUrl(verdict: 'clean' | 'withheld'): void { this.url = verdict; }

  /** Texts DLP matched in what leaves besides the body (a model name, a header value…): kept in memory only, so the record stage can make sure none is written. */
  withheld: string[] | null = null;

  withholdText(text: string): void {
    if (text.length === 0) return;
    (this.withheld ??= []).push(text);
  }

  /**
   * `value` with every withheld text replaced, for what the record stage writes (audit
   * fields, the log line, metric labels). The usual call has none: the value as it is.
   */
  scrub<T>(value: T): T {
    if (this.withheld === null || value === undefined || value === null) return value;
    let text = JSON.stringify(value);
    for (const secret of this.withheld) {
      const quoted = JSON.stringify(secret).slice(1, -1);
      text = text.split(quoted).join('[withheld]');
    }
    return JSON.parse(text) as T;
  }

  noteData(name: string, value: AuditValue): void { this.data[name] = value; }

  /** External guardrails' decisions (src/guardrails/), in the record as `guardrails`: name, phase, verdict, latency, never a text. */
  readonly guardrails: Array<Record<string, AuditValue>> = [];

  noteGuardrail(decision: { guardrail: string; kind: string; phase: string; verdict: string; latency_ms: number; error?: string; failed?: string }): void {
    this.guardrails.push({ ...decision });
    this.data.guardrails = this.guardrails;
  }

  noteBytesOut(bytes: number): void { this.bytesOut = bytes; }

  noteUpstreamWait(startedAt: bigint): void { this.upstreamNanos += process.hrtime.bigint() - startedAt; }

  noteFinished(): void { this.finished = true; }

  noteUpstreamSent(): void { this.upstreamSentAt = process.hrtime.bigint(); this.upstreamFirstByteAt = null; }

  noteUpstreamFirstByte(): void { this.upstreamFirstByteAt ??= process.hrtime.bigint(); }

  noteClientFirstByte(): void { this.clientFirstByteAt ??= process.hrtime.bigint(); }

  /**
   * The body the client gets, passed through so the record waits for its end: the
   * stages inside have noted their bytes and usage by then (their `finally` ran first).
   */
  trackStream<T>(body: AsyncIterable<T>): AsyncIterable<T> {
    let done = () => {};
    this.settled = new Promise((resolve) => { done = resolve; });
    return follow(body, () => done());
  }
}

async function* follow<T>(body: AsyncIterable<T>, onEnd: () => void): AsyncGenerator<T> {
  try {
    yield* body;
  } finally {
    onEnd();
  }
}
