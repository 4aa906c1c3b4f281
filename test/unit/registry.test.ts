import * as z from 'zod/v4';
import { describe, expect, it } from 'vitest';
import { ALL_DOMAIN_TOOLS, ENDPOINT_TOOLS } from '../../functions/all-tools.js';
import { defineTool } from '../../functions/mcp/tools/define-tool.js';
import { ToolRegistry } from '../../functions/mcp/tools/registry.js';

const valid = defineTool({
  name: 'user_thing_get',
  domain: 'user',
  title: 'Get a thing',
  description: 'Returns one thing by id. Use this when the user asks about a thing. Example: get thing 42 to show its name.',
  version: '1.0.0',
  input: z.strictObject({ id: z.string().describe('The thing id') }),
  output: z.object({ id: z.string() }),
  category: 'query',
  permissions: ['thing:read'],
  access: 'user',
  responseTime: 'fast',
  cacheable: true,
  cacheTTL: 60,
  idempotent: true,
  tags: ['things'],
  examples: [{ description: 'get one', input: { id: '42' }, expect: 'success', output: { id: '42' } }],
  handler: async (input) => ({ data: { id: input.id }, hints: { confidence: [{ name: 'found', value: 1 }] } }),
});

describe('ToolRegistry', () => {
  it('accepts every shipped definition', () => {
    for (const tool of [...ALL_DOMAIN_TOOLS, ...ENDPOINT_TOOLS]) expect(ToolRegistry.validate(tool), tool.name).toEqual([]);
  });

  it('gets by served name and lists by category, tag and domain', () => {
    const registry = new ToolRegistry('tn_', [...ALL_DOMAIN_TOOLS, ...ENDPOINT_TOOLS]);
    expect(registry.get('tn_user_byok_add')?.name).toBe('user_byok_add');
    expect(registry.get('user_byok_add')).toBeUndefined();
    expect(registry.getByCategory('mutation').map((t) => t.name).sort()).toEqual([
      'session_ask',
      'session_cancel_pending',
      'session_end',
      'session_import',
      'session_start',
      'user_byok_add',
      'user_byok_delete',
      'user_preferences_set',
    ]);
    expect(registry.getByTag('byok')).toHaveLength(3);
    expect(registry.getByDomain('user')).toHaveLength(7);
    expect(registry.getByDomain('session')).toHaveLength(10);
  });

  it('applies the configured prefix (seed 002)', () => {
    const registry = new ToolRegistry('', [valid]);
    expect(registry.get('user_thing_get')).toBe(valid);
  });

  it('refuses duplicates', () => {
    expect(() => new ToolRegistry('tn_', [valid, valid])).toThrow(/twice/);
  });

  it.each([
    ['a bad name', { name: 'UserThing' }, /snake_case/],
    ['a short description', { description: 'Gets a thing.' }, /50 characters/],
    ['cacheable without TTL', { cacheTTL: undefined }, /cacheTTL/],
    ['a cacheable mutation', { category: 'mutation' }, /mutations must not be cacheable/],
    ['no examples', { examples: [] }, /example/],
    ['no tags', { tags: [] }, /tag/],
    ['an undescribed field', { input: z.strictObject({ id: z.string() }) }, /needs a description/],
    ['a non-strict input', { input: z.object({ id: z.string().describe('x') }) }, /strict/],
    ['a bad permission', { permissions: ['read-things'] }, /resource:action/],
    ['an example that does not validate', { examples: [{ description: 'x', input: { id: 1 }, expect: 'success' }] }, /example 0 input/],
    ['destructive without confirmation', { destructive: true, category: 'mutation', cacheable: false }, /confirm/],
  ])('rejects %s', (_label, override, message) => {
    const problems = ToolRegistry.validate({ ...valid, ...override } as typeof valid);
    expect(problems.join('; ')).toMatch(message);
  });
});
