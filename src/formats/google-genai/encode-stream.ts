// Canonical parts → `:streamGenerateContent?alt=sse` for a Gemini client: each event is a
// whole GenerateContentResponse with the new parts, framed `data: …\r\n\r\n` as Google
// does; the last carries finishReason and usageMetadata. A function call is sent whole.
// https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
import type { CodecContext, StreamEncoder } from '../../canonical/codec.js';
import type { StreamPart } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { encodeSseEvent } from '../../streaming/sse-encoder.js';
import { encodeGoogleStreamError } from './encode-stream-error.js';
import { parseJsonObject, type JsonRecord } from '../shared/json-guards.js';
import { encodeGoogleFinishReason } from './map-finish-reason.js';
import { encodeGoogleUsage } from './map-usage.js';

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

export class GoogleStreamEncoder implements StreamEncoder {
  private responseId: string | undefined;
  private calls = new Map<number, PendingCall>();
  private reasoningWithText = new Set<number>();
  private pendingSignature: string | undefined;
  private usage: Usage = {};
  private closed = false;

  constructor(private readonly options: { model: string; context: CodecContext }) {}

  push(part: StreamPart): string {
    if (this.closed) return '';
    switch (part.type) {
      case 'response-start': this.responseId = part.id || undefined; return '';
      case 'text-delta': return part.delta === '' ? '' : this.chunk([{ text: part.delta }]);
      case 'reasoning-delta':
        if (part.delta === '') return '';
        this.reasoningWithText.add(part.index);
        return this.chunk([{ text: part.delta, thought: true }]);
      // Only Gemini's own signature goes out as a thoughtSignature; another provider's is never passed off as one.
      case 'reasoning-opaque': return part.origin === 'google' ? this.encodeSignature(part.index, part.signature) : '';
      case 'tool-call-start': this.calls.set(part.index, { id: part.id, name: part.name, args: '' }); return '';
      case 'tool-call-delta': {
        const call = this.calls.get(part.index);
        if (call) call.args += part.argumentsDelta;
        return '';
      }
      case 'tool-call-end': return this.encodeCall(part.index);
      case 'usage': this.usage = part.usage; return '';
      case 'finish': return this.encodeFinish(part.finishReason, part.usage);
      case 'error':
        this.closed = true;
        return encodeGoogleStreamError(part.error);
      default: return '';
    }
  }

  end(): string {
    return '';
  }

  /** A signature after thought text closes that thought; alone, it rides on the next part, as Gemini sends it. */
  private encodeSignature(index: number, signature: string | undefined): string {
    if (signature === undefined) return '';
    if (this.reasoningWithText.has(index)) return this.chunk([{ text: '', thought: true, thoughtSignature: signature }]);
    this.pendingSignature = signature;
    return '';
  }

  private encodeCall(index: number): string {
    const call = this.calls.get(index);
    if (call === undefined) return '';
    this.calls.delete(index);
    const args = parseJsonObject(call.args === '' ? '{}' : call.args) ?? {};
    return this.chunk([{ functionCall: { id: call.id, name: call.name, args } }]);
  }

  private encodeFinish(finishReason: Parameters<typeof encodeGoogleFinishReason>[0], usage: Usage): string {
    this.closed = true;
    const parts: JsonRecord[] = [{ text: '' }];
    const candidate = { content: { role: 'model', parts: this.withSignature(parts) }, finishReason: encodeGoogleFinishReason(finishReason), index: 0 };
    const merged = Object.keys(usage).length > 0 ? usage : this.usage;
    return this.frame({ candidates: [candidate], usageMetadata: encodeGoogleUsage(merged), ...this.identity() });
  }

  private chunk(parts: JsonRecord[]): string {
    return this.frame({ candidates: [{ content: { role: 'model', parts: this.withSignature(parts) }, index: 0 }], ...this.identity() });
  }

  private withSignature(parts: JsonRecord[]): JsonRecord[] {
    if (this.pendingSignature !== undefined && parts[0] !== undefined) parts[0].thoughtSignature = this.pendingSignature;
    this.pendingSignature = undefined;
    return parts;
  }

  private identity(): JsonRecord {
    this.responseId ??= this.options.context.ids();
    return { modelVersion: this.options.model, responseId: this.responseId };
  }

  private frame(payload: JsonRecord): string {
    return encodeSseEvent({ data: JSON.stringify(payload) }, { lineEnding: '\r\n' });
  }
}
