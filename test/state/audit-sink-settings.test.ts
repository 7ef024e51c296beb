// The audit sink's settings: where it streams (https anywhere, plain http only to this
// machine, or an absolute file), its token only as env:NAME, its backlog bound as a size; and
// none of them settable by an admin token.
import { describe, expect, it } from 'vitest';
import { refuseRemoteSetting } from '../../src/admin/remote-settings.js';
import { SETTING_DEFINITIONS } from '../../src/state/settings.js';
import { StateInputError } from '../../src/state/state-errors.js';

describe('audit sink settings', () => {
  it('takes an https URL, a loopback http URL or an absolute path, and refuses the rest', () => {
    const { parse, check } = SETTING_DEFINITIONS.audit_sink;
    expect(parse('https://siem.example.com/gw')).toBe('https://siem.example.com/gw');
    for (const loopback of ['http://127.0.0.1:8088/in', 'http://localhost:9/in', 'http://[::1]:9/in']) expect(parse(loopback), loopback).toBe(loopback);
    expect(parse('/var/log/gw/../gw/events.jsonl')).toBe('/var/log/gw/events.jsonl');
    expect(parse('none')).toBeNull();
    for (const bad of ['http://siem.example.com/in', 'https://user:pw@siem.example.com/in', 'ftp://siem/in', 'events.jsonl', 'siem.example.com']) {
      expect(() => parse(bad), bad).toThrow(StateInputError);
      expect(check(bad), bad).toBe(false);
    }
    expect(() => parse('http://10.0.0.5/in')).toThrow('http:// only to a loopback host');
  });

  it('takes the token only as env:NAME', () => {
    const { parse } = SETTING_DEFINITIONS.audit_sink_token;
    expect(parse('env:SIEM_TOKEN')).toBe('env:SIEM_TOKEN');
    expect(parse('none')).toBeNull();
    expect(() => parse('sk-literal-token')).toThrow(/use env:NAME/);
    expect(() => parse('sk-literal-token')).not.toThrow(/sk-literal-token/);
  });

  it('bounds the backlog from 1 MiB to 1 TiB', () => {
    const { parse, format } = SETTING_DEFINITIONS.audit_sink_max_backlog_bytes;
    expect(parse('256MiB')).toBe(256 * 1024 * 1024);
    expect(format(1024 ** 3)).toBe('1GiB');
    for (const bad of ['1KiB', '2TiB', 'lots', '-1']) expect(() => parse(bad), bad).toThrow(/audit_sink_max_backlog_bytes/);
  });

  it('refuses every sink setting from an admin token', () => {
    expect(refuseRemoteSetting('audit_sink', 'https://elsewhere.example.com/in')).toMatch(/hub's shell/);
    expect(refuseRemoteSetting('audit_sink', 'none')).toMatch(/hub's shell/);
    expect(refuseRemoteSetting('audit_sink_token', 'none')).toMatch(/hub's shell/);
  });
});
