// The optional license file, $GW_HOME/license.json: {"licensee", "expires_at"}. It is
// reported in /health and never gates the data plane (spec: "The data plane keeps
// serving whatever the license state is"). There is no vendor key to check a
// signature against yet, so "valid" means well-formed and not expired.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { errorCode } from '../error-code.js';

export type LicenseStatus = 'none' | 'valid' | 'expired' | 'invalid';

export interface LicenseReport {
  state: LicenseStatus;
  licensee?: string;
  expires_at?: string;
  reason?: string;
}

const LICENSE_FILE = 'license.json';

export function readLicense(home: string, now: Date): LicenseReport {
  const file = path.join(home, LICENSE_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { state: 'none' };
    return { state: 'invalid', reason: `cannot read ${LICENSE_FILE}` };
  }
  let value: unknown;
  try { value = JSON.parse(text); } catch { return { state: 'invalid', reason: `${LICENSE_FILE} is not valid JSON` }; }
  const { licensee, expires_at: expiresAt } = (value ?? {}) as Record<string, unknown>;
  if (typeof licensee !== 'string' || typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt))) {
    return { state: 'invalid', reason: `${LICENSE_FILE} needs "licensee" and an ISO "expires_at"` };
  }
  return { state: Date.parse(expiresAt) > now.getTime() ? 'valid' : 'expired', licensee, expires_at: expiresAt };
}

/** Re-reads the file only when it changed (health checks come often; licenses rarely change). */
export function createLicenseReader(home: string, now: () => Date): () => LicenseReport {
  let seen = '';
  let report: LicenseReport = { state: 'none' };
  return () => {
    let signature = 'absent';
    try {
      const stat = statSync(path.join(home, LICENSE_FILE));
      signature = `${stat.mtimeMs}:${stat.size}`;
    } catch { /* absent */ }
    // The expiry moves with the clock, so a cached "valid" is re-judged each time.
    if (signature !== seen || report.state === 'valid') {
      seen = signature;
      report = readLicense(home, now());
    }
    return report;
  };
}
