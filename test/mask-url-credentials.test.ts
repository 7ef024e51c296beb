import { describe, expect, it } from 'vitest';
import { maskUrlCredentials, maskUrlCredentialsDeep } from '../src/mask-url-credentials.js';
import { createLogger } from '../src/logger.js';

describe('maskUrlCredentials', () => {
  it('masks the password of every URL in a text, keeping the user and the rest', () => {
    expect(maskUrlCredentials('https://user:pass@host/v1')).toBe('https://user:***@host/v1');
    expect(maskUrlCredentials('GET http://a:b%40c@127.0.0.1:8080/x?y=1 then wss://u:p@h')).toBe('GET http://a:***@127.0.0.1:8080/x?y=1 then wss://u:***@h');
    expect(maskUrlCredentials('https://:onlypass@host')).toBe('https://:***@host');
  });

  it('leaves URLs without a password and plain text alone', () => {
    for (const text of ['https://host/v1', 'https://user@host/v1', 'mail me at a@b.c', 'https://host/v1/a@b']) {
      expect(maskUrlCredentials(text)).toBe(text);
    }
  });

  it('masks strings nested in objects and arrays, returning the same object when nothing changes', () => {
    const clean = { a: 'https://host', b: [1, 'x'] };
    expect(maskUrlCredentialsDeep(clean)).toBe(clean);
    expect(maskUrlCredentialsDeep({ provider: { url: 'https://u:p@h' }, list: ['http://x:y@z'] })).toEqual({ provider: { url: 'https://u:***@h' }, list: ['http://x:***@z'] });
  });
});

describe('the logger', () => {
  it('never writes a URL password, in the message or in a logged object', () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
    logger.warn({ warning: 'provider p: base URL https://alice:CANARY-1@proxy.example points nowhere', nested: { url: 'http://bob:CANARY-2@h' } }, 'skipped https://carol:CANARY-3@h');
    logger.info('plain https://dave:CANARY-4@h/v1');
    const output = lines.join('');
    expect(output).not.toContain('CANARY');
    expect(output).toContain('https://alice:***@proxy.example');
    expect(output).toContain('http://bob:***@h');
    expect(output).toContain('https://carol:***@h');
    expect(output).toContain('https://dave:***@h/v1');
  });
});
