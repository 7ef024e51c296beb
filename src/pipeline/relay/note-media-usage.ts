// Relay, media routes (images, transcriptions, speech): a successful call's units, the model its
// form named and the size of its images, noted on the trace for the price book. A call that
// leaves nothing to price by (a text transcript has no duration; a form that named no model gets
// the provider's default) is recorded at an unknown price, never 0.
import type { AuditTokens } from '../../audit/record.js';
import { countMediaUsage, type MediaUnit, type RequestFields } from '../plan/media-units.js';
import type { RequestTrace } from '../request-trace.js';

export function noteMediaUsage(trace: RequestTrace, fields: RequestFields, unit: MediaUnit, answer: unknown, reported: AuditTokens | null): AuditTokens | null {
  if (typeof fields.model === 'string' && fields.model !== '') trace.noteFormModel(fields.model);
  const usage = countMediaUsage(unit, fields, answer, reported);
  if (usage.image) trace.noteImage(usage.image);
  if (usage.tokens === null || !trace.target?.model) {
    trace.noteCost({ price: 'unknown' });
    trace.noteWarning(`usage_unknown: ${usage.tokens === null ? unit : 'model'}`, { once: true });
  }
  return usage.tokens;
}
