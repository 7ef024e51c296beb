// The opt-in prompt-cache marker (docs/prompt-cache.md): which scope decides, where each format's
// marker goes, and that a client's own marker (anywhere in the body) means nothing is added.
import { describe, expect, it } from 'vitest';
import { cacheMarkerOn } from '../../src/policy/cache-marker-on.js';
import { addAnthropicCacheMarker } from '../../src/formats/anthropic-messages/add-cache-marker.js';
import { addOpenAiCacheBreakpoint, takesCacheBreakpoint } from '../../src/formats/openai-chat/add-cache-breakpoint.js';
import { cacheMarkerFor } from '../../src/pipeline/plan/cache-marker-for.js';
import { readGovernance } from '../../src/state/parse-governance.js';

const EPHEMERAL = { type: 'ephemeral' };

describe('cacheMarkerOn: the most specific scope that names it decides; off by default', () => {
  it.each([
    [[], false],
    [[{ scope: '*', rpm: 1 }], false],
    [[{ scope: '*', cache_marker: 'on' }], true],
    [[{ scope: '*', cache_marker: 'on' }, { scope: 'team:eng', cache_marker: 'off' }], false],
    [[{ scope: 'key:vk_1', cache_marker: 'on' }, { scope: 'team:eng', cache_marker: 'off' }], true],
    [[{ scope: 'team:eng', cache_marker: 'on' }, { scope: 'key:vk_1', max_tokens: 5 }], true],
  ] as const)('%j → %s', (policies, expected) => {
    expect(cacheMarkerOn(policies as never)).toBe(expected);
  });
});

describe('state.json: cache_marker is on or off', () => {
  it('a policy with another value is refused when state is read', () => {
    const read = (value: unknown) => readGovernance({ policies: [{ scope: 'team:eng', cache_marker: value }], dlp: [], routes: [] });
    expect(typeof read('on')).toBe('object');
    expect(read('yes')).toMatch(/cache_marker is not on or off/);
  });
});

describe('Anthropic: cache_control on the first cacheable block\'s end', () => {
  const messages = [{ role: 'user', content: 'hi' }];

  it('the last system block (tools come before it in the cached prefix)', () => {
    const system = [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }];
    const body = { model: 'm', system, tools: [{ name: 't' }], messages };
    expect(addAnthropicCacheMarker(body)).toEqual({ ...body, system: [system[0], { ...system[1], cache_control: EPHEMERAL }] });
    // The caller's object is left as it was.
    expect(body.system[1]).toEqual({ type: 'text', text: 'b' });
  });

  it('a string system prompt becomes one marked text block; no system: the last tool; neither: nothing', () => {
    expect(addAnthropicCacheMarker({ system: 'be brief', messages })?.system).toEqual([{ type: 'text', text: 'be brief', cache_control: EPHEMERAL }]);
    expect(addAnthropicCacheMarker({ tools: [{ name: 'a' }, { name: 'b' }], messages })?.tools).toEqual([{ name: 'a' }, { name: 'b', cache_control: EPHEMERAL }]);
    expect(addAnthropicCacheMarker({ messages })).toBeNull();
  });

  it('a marker the client put anywhere (a message block) wins: nothing added', () => {
    expect(addAnthropicCacheMarker({ system: 'x', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: EPHEMERAL }] }] })).toBeNull();
  });
});

describe('OpenAI: prompt_cache_breakpoint on GPT-5.6 and later only', () => {
  it.each([['gpt-5.6-terra', true], ['openai/gpt-5.6', true], ['gpt-5.10-mini', true], ['gpt-6-astra', true], ['gpt-5.5', false], ['gpt-5', false], ['gpt-4o', false], ['claude-sonnet-4-5', false], [null, false]] as const)('%s → %s', (model, expected) => {
    expect(takesCacheBreakpoint(model)).toBe(expected);
  });

  it('the last part of the first system or developer message; a client breakpoint wins', () => {
    const body = { messages: [{ role: 'developer', content: [{ type: 'text', text: 'rules' }] }, { role: 'user', content: 'hi' }] };
    expect(addOpenAiCacheBreakpoint(body, 'messages', 'text')?.messages).toEqual([
      { role: 'developer', content: [{ type: 'text', text: 'rules', prompt_cache_breakpoint: { mode: 'explicit' } }] }, body.messages[1],
    ]);
    const marked = { messages: [{ role: 'system', content: 's' }, { role: 'user', content: [{ type: 'text', text: 'hi', prompt_cache_breakpoint: { mode: 'explicit' } }] }] };
    expect(addOpenAiCacheBreakpoint(marked, 'messages', 'text')).toBeNull();
    expect(addOpenAiCacheBreakpoint({ messages: [{ role: 'user', content: 'hi' }] }, 'messages', 'text')).toBeNull();
  });
});

describe('cacheMarkerFor: the pipeline\'s choice', () => {
  const on = [{ scope: '*', cache_marker: 'on' as const }];
  it('off: no marker for anyone; on: Anthropic Messages, and OpenAI Chat to a model that takes one', () => {
    expect(cacheMarkerFor([], 'messages', 'anthropic', 'claude-sonnet-4-5')).toBeNull();
    expect(cacheMarkerFor(on, 'messages', 'anthropic', 'claude-sonnet-4-5')).not.toBeNull();
    expect(cacheMarkerFor(on, 'chat.completions', 'openai', 'gpt-5.6-terra')).not.toBeNull();
    expect(cacheMarkerFor(on, 'chat.completions', 'openai', 'gpt-4o')).toBeNull();
    expect(cacheMarkerFor(on, 'responses.create', 'openai', 'gpt-5.6-sol')).not.toBeNull();
    expect(cacheMarkerFor(on, 'files', 'openai', 'gpt-5.6-sol')).toBeNull();
    expect(cacheMarkerFor(on, 'genai.generateContent', 'gemini', 'gemini-2.5-flash')).toBeNull();
  });
});
