// Thinking signatures are bound to the provider that issued them: Anthropic refuses any other
// (`Invalid signature in thinking block`). When another provider's reasoning goes to an Anthropic
// client (whose thinking block must carry a `signature`), gw writes a marked carrier instead of a
// signature: `gwsig.v1.<origin>.<opaque>`, where opaque is Gemini's thoughtSignature, OpenAI's
// encrypted_content, or empty for unsigned reasoning. It is never an Anthropic signature: gw unwraps
// it when the client sends it back, so the opaque value returns to the provider that made it, and
// drops the block (counted) whenever it would reach Anthropic.
const FOREIGN_SIGNATURE_MARK = 'gwsig.v1.';

export type ForeignOrigin = 'openai' | 'google' | 'none';

export function wrapForeignSignature(origin: ForeignOrigin, opaque: string): string {
  return `${FOREIGN_SIGNATURE_MARK}${origin}.${opaque}`;
}

/** The origin and opaque value of a carrier gw wrote, or null for anything else (a real signature). */
export function unwrapForeignSignature(signature: string): { origin: ForeignOrigin; opaque: string } | null {
  if (!signature.startsWith(FOREIGN_SIGNATURE_MARK)) return null;
  const rest = signature.slice(FOREIGN_SIGNATURE_MARK.length);
  const dot = rest.indexOf('.');
  const origin = dot < 0 ? rest : rest.slice(0, dot);
  if (origin !== 'openai' && origin !== 'google' && origin !== 'none') return null;
  return { origin, opaque: dot < 0 ? '' : rest.slice(dot + 1) };
}
