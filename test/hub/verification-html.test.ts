// The confirmation page keeps what the hub observed (address, time) apart from
// what the device claims about itself (program, computer name), and labels the
// claims as claims: a phishing sender controls the latter.
import { describe, expect, it } from 'vitest';
import { confirmPage } from '../../src/hub/verification-html.js';
import type { DeviceCodeRecord } from '../../src/state/schema.js';

const RECORD: DeviceCodeRecord = {
  id: 'dc_1', device_code_hash: 'ab', user_code: 'BCDFGHJK', status: 'pending',
  requester: { ip: '203.0.113.7', user_agent: 'gw-cli/0.1.0 <script>', client_host: 'Alice-MacBook' },
  created_at: '2026-11-24T05:00:00.000Z', expires_at: '2026-11-24T05:15:00.000Z',
  claimed_email: null, person: null, approved_at: null, approved_by: null, token_id: null,
};

function section(html: string, testid: string): string {
  const match = new RegExp(`<dl data-testid="${testid}">([\\s\\S]*?)</dl>`).exec(html);
  expect(match, testid).not.toBeNull();
  return match![1]!;
}

describe('confirmPage', () => {
  it('shows the observed address and time apart from the device claims, which are labelled as claims', () => {
    const html = confirmPage('csrf', RECORD, null, 'nonce');
    const observed = section(html, 'observed');
    const claimed = section(html, 'claimed');
    expect(observed).toContain('203.0.113.7');
    expect(observed).toContain('datetime="2026-11-24T05:00:00.000Z"');
    expect(observed).not.toContain('Alice-MacBook');
    expect(observed).not.toContain('gw-cli');
    expect(claimed).toContain('<dt>Program (claimed)</dt><dd data-testid="user-agent">gw-cli/0.1.0 &#60;script&#62;</dd>');
    expect(claimed).toContain('<dt>Computer (claimed)</dt><dd data-testid="client-host">Alice-MacBook</dd>');
    expect(claimed).not.toContain('203.0.113.7');
    expect(html).toContain('What the device says about itself');
    expect(html).toContain('they are not checked');
  });
});
