// What a realtime session cost, for its close record and its budget hold (held at the handshake
// like any call: src/pipeline/realtime/realtime-session.ts). The provider reports usage once per response,
// in `response.done`; a session that ends while a response is still running (the client hangs
// up, the provider drops the socket, gw stops it) never gets that response's usage. Its share is
// then estimated from what passed, so the session is charged at least what it relayed, never
// only what finished:
//   - input: the larger of the context the last finished response was billed for (its input and
//     output tokens) and every text event the client sent (tokenized) plus the audio it appended;
//   - output: the text the running response relayed (text, transcript and tool-argument deltas,
//     tokenized) plus its audio.
// Audio is counted as OpenAI bills it, one token per 100 ms heard and per 50 ms spoken
// (https://platform.openai.com/docs/guides/realtime-costs), at the session's audio format
// (24 kHz pcm16 by default; G.711 at 8 kHz when session.update names it). Events are told apart
// by substring; only deltas of text and the few events that set state are parsed. Each finished
// response is charged as it comes, and a session whose budget is spent is ended (chargeResponse).
// https://platform.openai.com/docs/api-reference/realtime-server-events
import type { AuditCost, AuditTokens } from '../../audit/record.js';
import { completeUsage, estimateInputTokens, estimateOutputTokens, type CountTokens, type CutUsage } from '../../spend/estimate-cut-usage.js';
import { GatewayError } from '../../errors.js';
import type { BudgetSubject } from '../../spend/budget-keeper.js';
import { estimateWorstCase } from '../../spend/estimate-worst-case.js';
import type { GatewayServices } from '../gateway-services.js';
import { settleBudget } from '../plan/hold-budget.js';
import { priceCall, spendOf } from '../plan/price-call.js';
import type { RequestTrace } from '../request-trace.js';
import { loadTokenizer } from '../record/settle-cut-call.js';
import { isPlainObject } from '../../is-plain-object.js';

/** OpenAI Realtime caps one response's output at 4,096 tokens (max_response_output_tokens): one response's worst case. */
const REALTIME_RESPONSE_OUTPUT_TOKENS = 4096;

const PCM16_BYTES_PER_SECOND = 48_000;
const G711_BYTES_PER_SECOND = 8_000;
/** Client text kept for the input estimate; past it, a byte counts as a token. */
const RETAINED_CHARS = 1024 * 1024;

export class RealtimeSpend {
  private readonly clientTexts: string[] = [];
  private clientChars = 0;
  private clientOverflowBytes = 0;
  private audioInBytes = 0;
  private inputBytesPerSecond = PCM16_BYTES_PER_SECOND;
  private outputBytesPerSecond = PCM16_BYTES_PER_SECOND;
  /** A response was created and its response.done has not come. */
  private running = false;
  private runningTexts: string[] = [];
  private runningAudioBytes = 0;
  /** The context the last finished response was billed for. */
  private lastContext = 0;
  /** Nano-USD of finished responses already counted against the budgets (chargeResponse). */
  private charged = 0;

  /** One text event from the client, as forwarded to the provider. */
  clientEvent(text: string): void {
    if (text.includes('"input_audio_buffer.append"')) {
      this.audioInBytes += base64Bytes(text);
      return;
    }
    if (text.includes('"session.update"')) this.readFormats(text);
    if (this.clientChars + text.length <= RETAINED_CHARS) {
      this.clientChars += text.length;
      this.clientTexts.push(text);
    } else this.clientOverflowBytes += Buffer.byteLength(text, 'utf8');
  }

  /** One text event from the provider, as relayed to the client; a response.done gives back that response's usage. */
  providerEvent(text: string): AuditTokens | null {
    if (text.includes('"response.done"')) return this.finishResponse(text);
    if (text.includes('"response.created"')) {
      this.running = true;
      return null;
    }
    if (!text.includes('.delta"')) return null;
    // Audio deltas are most of a session's bytes: sized, never parsed.
    if (text.includes('audio.delta"') && text.includes('"response.')) {
      this.running = true;
      this.runningAudioBytes += base64Bytes(text);
      return null;
    }
    const event = parseObject(text);
    // Deltas of a response (text, transcript, tool arguments); an input transcription's are not output.
    if (typeof event?.type !== 'string' || !event.type.startsWith('response.') || typeof event.delta !== 'string') return null;
    this.running = true;
    this.runningTexts.push(event.delta);
    return null;
  }

  /**
   * A finished response's cost counted against the caller's budgets at once (a session runs many
   * responses on the one hold of its handshake), then whether one more response's worst case
   * still fits every hard budget: when it does not, the refusal to end the session with. So a
   * session overshoots a hard budget by at most the response that spent it.
   */
  async chargeResponse(services: GatewayServices, trace: RequestTrace, subject: BudgetSubject, tokens: AuditTokens): Promise<GatewayError | null> {
    const budgets = services.state.snapshot().budgets ?? [];
    if (budgets.length === 0 || !trace.target?.model) return null;
    const spend = spendOf(services);
    const nanos = spend.prices.price(trace.target, tokens).nano_usd;
    if (nanos) {
      this.charged += nanos;
      await spend.budgets.charge(budgets, subject, nanos);
    }
    const rates = spend.prices.rates(trace.target);
    try {
      const next = await spend.budgets.admit(budgets, subject, rates === null ? null : estimateWorstCase(rates, 0, { max_tokens: REALTIME_RESPONSE_OUTPUT_TOKENS }));
      await next.settle(0);
      return null;
    } catch (error) {
      return error instanceof GatewayError ? error : null;
    }
  }

  /** What the handshake's hold settles to: the session's cost less what its finished responses were already charged. */
  remainderOf(cost: AuditCost | null): number | null {
    if (cost === null) return 0;
    return cost.nano_usd === undefined ? null : Math.max(0, cost.nano_usd - this.charged);
  }

  /** Whether a response was still running when the session ended (its usage never came). */
  get cut(): boolean {
    return this.running;
  }

  /**
   * The session's usage: what the provider reported, plus, when a response was still running at
   * the end, gw's estimate of it (flagged). Null when nothing ran and nothing was reported.
   */
  usage(reported: AuditTokens | null, count: CountTokens): CutUsage | null {
    if (!this.running) return reported ? { tokens: reported, estimated: false } : null;
    const audioIn = Math.ceil((this.audioInBytes / this.inputBytesPerSecond) * 10);
    const audioOut = Math.ceil((this.runningAudioBytes / this.outputBytesPerSecond) * 20);
    const heard = estimateInputTokens(this.clientTexts.join('\n'), count) + this.clientOverflowBytes + audioIn;
    const cut = completeUsage(null, {
      input: () => Math.max(this.lastContext, heard),
      output: estimateOutputTokens(this.runningTexts, count) + audioOut,
    });
    const tokens: AuditTokens = {
      input: (reported?.input ?? 0) + (cut.tokens.input ?? 0), output: (reported?.output ?? 0) + (cut.tokens.output ?? 0),
      // The estimate's audio is priced as audio (dearer than text where the model has an audio price).
      ...(audioIn > 0 ? { audio_input: audioIn } : {}), ...(audioOut > 0 ? { audio_output: audioOut } : {}),
    };
    return { tokens: { ...tokens, total: (tokens.input ?? 0) + (tokens.output ?? 0) }, estimated: true };
  }

  private finishResponse(text: string): AuditTokens | null {
    const usage = (parseObject(text)?.response as { usage?: { input_tokens?: unknown; output_tokens?: unknown } } | undefined)?.usage;
    const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
    const [input, output] = [count(usage?.input_tokens), count(usage?.output_tokens)];
    this.lastContext = input + output;
    this.running = false;
    this.runningTexts = [];
    this.runningAudioBytes = 0;
    return usage ? { input, output, total: input + output } : null;
  }

  /** The beta's input_audio_format / output_audio_format, or GA's audio/pcmu and audio/pcma: G.711 carries 8,000 bytes a second. */
  private readFormats(text: string): void {
    const session = parseObject(text)?.session as Record<string, unknown> | undefined;
    if (!session) return;
    const audio = session.audio as { input?: { format?: unknown }; output?: { format?: unknown } } | undefined;
    const rate = (format: unknown) => (/g711|pcmu|pcma/.test(JSON.stringify(format ?? '')) ? G711_BYTES_PER_SECOND : PCM16_BYTES_PER_SECOND);
    if (session.input_audio_format !== undefined || audio?.input?.format !== undefined) this.inputBytesPerSecond = rate(session.input_audio_format ?? audio?.input?.format);
    if (session.output_audio_format !== undefined || audio?.output?.format !== undefined) this.outputBytesPerSecond = rate(session.output_audio_format ?? audio?.output?.format);
  }
}

/** The audio bytes an event's base64 carries (the event's own JSON is a few dozen bytes of it, counted too: never fewer). */
function base64Bytes(text: string): number {
  return Math.ceil((text.length * 3) / 4);
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * At the session's close: its usage (reported, completed by the estimate when a response was cut)
 * priced, and the budget hold taken at the handshake settled to that cost (not waited for: the
 * close record need not wait on the counter). Returns the cost for the close record.
 */
export async function settleRealtimeSession(services: GatewayServices, trace: RequestTrace, reported: AuditTokens | null, spend: RealtimeSpend | null): Promise<AuditCost | null> {
  const usage = spend?.cut ? spend.usage(reported, await loadTokenizer()) : reported ? { tokens: reported, estimated: false } : null;
  if (usage?.estimated) trace.noteEstimatedUsage(usage.tokens);
  else trace.noteUsage(usage?.tokens ?? null);
  const cost = priceCall(services, trace);
  // Finished responses were charged as they came (chargeResponse): the hold settles to the rest.
  const settling = spend ? trace.budget?.settle(spend.remainderOf(cost)) : trace.budget ? settleBudget(services, trace) : undefined;
  settling?.catch((error: unknown) => services.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'realtime budget settle failed'));
  return cost;
}
