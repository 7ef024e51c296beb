// TEMPORARY: kept only for src/server/realtime-proxy.ts until it calls
// codecForFamily(family).encodeError(error) from codec-registry.ts; then delete this file
// (.dependency-cruiser.cjs lists realtime-proxy.ts in a temporary exception for it).
import type { WireError, WireErrorInput } from '../canonical/codec.js';
import { codecForFamily, type CodecFamily } from './codec-registry.js';

export type ErrorFamily = CodecFamily;

export function encodeErrorForFamily(family: ErrorFamily, error: WireErrorInput): WireError {
  return codecForFamily(family).encodeError(error);
}
