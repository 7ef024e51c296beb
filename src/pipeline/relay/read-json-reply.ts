// A provider's JSON answer, read whole before anything is relayed (bounded: API10, treat the
// upstream as untrusted) so its usage can be recorded and DLP can read it; it is then sent
// unchanged, or translated, from the value parsed here (no caller parses it again).
import type { DialectCodec } from '../../canonical/codec.js';
import type { WireDialect } from '../../canonical/dialect.js';
import type { Usage } from '../../canonical/usage.js';
import { GatewayError } from '../../errors.js';
import { codecForDialect } from '../../formats/codec-registry.js';
import { createUsageTap } from './usage-tap.js';

/** Largest non-streaming provider response gw holds in memory. */
const MAX_JSON_RESPONSE_BYTES = 64 * 1024 * 1024;

type ResponseBody = AsyncIterable<Uint8Array> & { arrayBuffer?: () => Promise<ArrayBuffer> };

/** The declared length when it alone bounds the body: HTTP/1.1 framing reads exactly that many bytes. */
function declaredLength(headers: Record<string, string | string[] | undefined>): number | null {
  const length = headers['content-length'];
  if (typeof length !== 'string' || headers['transfer-encoding'] !== undefined) return null;
  const value = Number(length);
  return Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** A provider's JSON answer: its bytes as sent, the usage read from it, and the parsed value (undefined when it is not JSON), so no caller parses it again. */
export interface JsonAnswer {
  bytes: Buffer;
  usage: Usage | undefined;
  answer: unknown;
}

/**
 * `codec` reads the usage; a WireDialect (the older form) means that dialect's codec; null: the
 * caller decodes the answer itself and reads the usage from that (a translated answer), so it is not read twice.
 */
export async function readJsonBody(body: ResponseBody, codec: DialectCodec | WireDialect | null, headers: Record<string, string | string[] | undefined> = {}): Promise<JsonAnswer> {
  const declared = declaredLength(headers);
  if (declared !== null && declared > MAX_JSON_RESPONSE_BYTES) throw tooLarge();
  // A length within the cap: one await for the whole body instead of an async iterator,
  // a copy per chunk and a concat (together ~4% of a non-streaming request's CPU).
  const bytes = declared !== null && typeof body.arrayBuffer === 'function'
    ? Buffer.from(await body.arrayBuffer())
    : await readBounded(body);
  const tap = codec === null ? null : createUsageTap(typeof codec === 'string' ? codecForDialect(codec) : codec);
  let answer: unknown;
  try {
    answer = JSON.parse(bytes.toString('utf8'));
    tap?.readJson(answer);
  } catch { /* not JSON: forwarded as it is */ }
  return { bytes, usage: tap?.usage(), answer };
}

function tooLarge(): GatewayError {
  return new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: `The provider's response is larger than ${MAX_JSON_RESPONSE_BYTES} bytes.` });
}

/** No usable length (chunked, or the in-process mock): read chunk by chunk, stopping at the cap. */
async function readBounded(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_JSON_RESPONSE_BYTES) throw tooLarge();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
