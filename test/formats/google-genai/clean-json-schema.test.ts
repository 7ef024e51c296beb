import { describe, expect, it } from 'vitest';
import type { TranslationWarning } from '../../../src/canonical/codec.js';
import { cleanJsonSchemaForGemini, normalizeGeminiSchema } from '../../../src/formats/google-genai/clean-json-schema.js';

function clean(schema: Record<string, unknown>): { schema: Record<string, unknown>; codes: string[] } {
  const warnings: TranslationWarning[] = [];
  return { schema: cleanJsonSchemaForGemini(schema, warnings), codes: warnings.map((warning) => warning.code).sort() };
}

describe('cleanJsonSchemaForGemini', () => {
  it('removes what Gemini rejects and warns once per keyword', () => {
    const result = clean({
      $schema: 'http://json-schema.org/draft-07/schema#', $id: 'x', type: 'object', additionalProperties: false,
      properties: {
        path: { type: 'string', default: 'a', examples: ['b'], description: 'file' },
        count: { type: 'integer', exclusiveMinimum: 0, minimum: 1 },
        nested: { type: 'object', additionalProperties: false, properties: { flag: { type: 'boolean' } } },
      },
      required: ['path', 'missing'],
    });
    expect(result.schema).toEqual({
      type: 'object',
      properties: { path: { type: 'string', description: 'file' }, count: { type: 'integer', minimum: 1 }, nested: { type: 'object', properties: { flag: { type: 'boolean' } } } },
      required: ['path'],
    });
    expect(result.codes).toEqual(['dropped:schema.$id', 'dropped:schema.$schema', 'dropped:schema.additionalProperties', 'dropped:schema.default', 'dropped:schema.examples', 'dropped:schema.exclusiveMinimum']);
  });

  it('keeps a property named like a keyword', () => {
    expect(clean({ type: 'object', properties: { default: { type: 'string' }, $schema: { type: 'string' } } }).schema)
      .toEqual({ type: 'object', properties: { default: { type: 'string' }, $schema: { type: 'string' } } });
  });

  it('inlines local $ref, drops cyclic ones, maps const, oneOf and nullable type unions', () => {
    const result = clean({
      type: 'object',
      definitions: { point: { type: 'object', properties: { x: { type: 'number' } } }, tree: { type: 'object', properties: { child: { $ref: '#/definitions/tree' } } } },
      properties: {
        at: { $ref: '#/definitions/point' }, tree: { $ref: '#/definitions/tree' }, kind: { const: 'circle' },
        either: { oneOf: [{ type: 'string' }, { type: 'number' }] }, maybe: { type: ['string', 'null'] },
      },
    });
    expect(result.schema.properties).toEqual({
      at: { type: 'object', properties: { x: { type: 'number' } } },
      tree: { type: 'object', properties: { child: { type: 'object' } } },
      kind: { type: 'string', enum: ['circle'] },
      either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      maybe: { type: 'string', nullable: true },
    });
    expect(result.codes).toEqual(['dropped:schema.$ref', 'dropped:schema.definitions']);
  });

  it('drops formats Gemini refuses and keeps date-time', () => {
    expect(clean({ type: 'object', properties: { a: { type: 'string', format: 'uri' }, b: { type: 'string', format: 'date-time' } } }).schema.properties)
      .toEqual({ a: { type: 'string' }, b: { type: 'string', format: 'date-time' } });
  });
});

describe('normalizeGeminiSchema', () => {
  it('lower-cases the UPPERCASE types Gemini CLI sends, deep', () => {
    expect(normalizeGeminiSchema({ type: 'OBJECT', properties: { list: { type: 'ARRAY', items: { type: 'STRING' } }, type: { type: 'NUMBER' } } }))
      .toEqual({ type: 'object', properties: { list: { type: 'array', items: { type: 'string' } }, type: { type: 'number' } } });
  });
});
