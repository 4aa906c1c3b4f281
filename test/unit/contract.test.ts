import { describe, expect, it } from 'vitest';
import { breakingChanges, type JsonSchema, type ToolContract } from '../../functions/mcp/contract/tool-contract.js';

const tool = (input: Record<string, JsonSchema>, required: string[], output: Record<string, JsonSchema>) => ({
  name: 'tn_user_thing',
  title: 't',
  description: 'd',
  annotations: {} as never,
  metadata: {} as never,
  examples: [],
  inputSchema: { type: 'object', properties: input, required },
  outputSchema: { type: 'object', properties: output },
});

const base: ToolContract = {
  contractVersion: 1,
  tools: [tool({ id: { type: 'string' }, limit: { type: 'number' } }, ['id'], { id: { type: 'string' }, nested: { type: 'object', properties: { a: { type: 'string' } } } })],
};

describe('breaking-change detection against the committed contract', () => {
  it('allows additive changes', () => {
    const next = { ...base, tools: [tool({ id: { type: 'string' }, limit: { type: 'number' }, extra: { type: 'string' } }, ['id'], { id: { type: 'string' }, nested: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } }, more: { type: 'number' } })] };
    expect(breakingChanges(base, next)).toEqual([]);
  });

  it.each([
    ['a removed tool', { ...base, tools: [] }, /tool removed/],
    ['a removed input field', { ...base, tools: [tool({ id: { type: 'string' } }, ['id'], { id: { type: 'string' }, nested: { type: 'object', properties: { a: { type: 'string' } } } })] }, /input field "limit" removed/],
    ['a newly required input', { ...base, tools: [tool({ id: { type: 'string' }, limit: { type: 'number' } }, ['id', 'limit'], { id: { type: 'string' }, nested: { type: 'object', properties: { a: { type: 'string' } } } })] }, /newly required/],
    ['a removed nested output field', { ...base, tools: [tool({ id: { type: 'string' }, limit: { type: 'number' } }, ['id'], { id: { type: 'string' }, nested: { type: 'object', properties: {} } })] }, /nested: field "a" removed/],
    ['a changed field type', { ...base, tools: [tool({ id: { type: 'number' }, limit: { type: 'number' } }, ['id'], { id: { type: 'string' }, nested: { type: 'object', properties: { a: { type: 'string' } } } })] }, /changed type/],
  ])('flags %s', (_label, next, message) => {
    expect(breakingChanges(base, next as ToolContract).join('; ')).toMatch(message);
  });
});
