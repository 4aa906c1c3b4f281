import { describe, expect, it } from 'vitest';
import { ALL_DOMAIN_TOOLS, ENDPOINT_TOOLS } from '../../functions/all-tools.js';
import { ALL_SURFACE } from '../../functions/all-contracts.js';
import { listTools } from '../../functions/mcp/http/mcp-server.js';
import { DOMAINS } from '../../functions/mcp/tools/define-tool.js';
import { ToolRegistry } from '../../functions/mcp/tools/registry.js';

/**
 * Another TN_TOOL_PREFIX renames every tool and every mention of one in what tools/list shows, and the
 * listing is rendered once per registry: a server is built per request, the list it answers is shared.
 */
const DEFINITIONS = [...ALL_DOMAIN_TOOLS, ...ENDPOINT_TOOLS];
const mentionsOf = (prefix: string, text: string) => text.match(new RegExp(`\\b${prefix}(?:${DOMAINS.join('|')})_[a-z]+(?:_[a-z]+)*`, 'g')) ?? [];

describe('a registry with the prefix x_', () => {
  const registry = new ToolRegistry('x_', DEFINITIONS);

  it('lists every tool under x_, and names every other tool its descriptions and schemas mention by x_', () => {
    const tools = listTools(registry, ALL_SURFACE);
    expect(tools.map((tool) => tool.name).sort()).toEqual(DEFINITIONS.map((definition) => `x_${definition.name}`).sort());
    const listed = JSON.stringify(tools);
    expect(mentionsOf('tn_', listed)).toEqual([]);
    // The same mentions, in the same order, as the default listing has with tn_: each one renamed, none lost or invented.
    const defaults = mentionsOf('tn_', JSON.stringify(listTools(new ToolRegistry('tn_', DEFINITIONS), ALL_SURFACE)));
    expect(defaults.length).toBeGreaterThan(DEFINITIONS.length);
    expect(mentionsOf('x_', listed)).toEqual(defaults.map((name) => `x_${name.slice('tn_'.length)}`));
    // Every mention names a tool this registry serves.
    for (const name of mentionsOf('x_', listed)) expect(registry.get(name), name).toBeDefined();
  });

  it('answers two tools/list calls with the same listing objects, rendered once', () => {
    const first = listTools(registry, ALL_SURFACE);
    const second = listTools(registry, ALL_SURFACE);
    expect(second).toBe(first);
    second.forEach((tool, index) => expect(tool).toBe(first[index]));
    // Another registry (another endpoint, another prefix) renders its own.
    expect(listTools(new ToolRegistry('x_', DEFINITIONS), ALL_SURFACE)).not.toBe(first);
  });

  it('renders static parts once and leaves per-call text to servedText', () => {
    const source = { description: 'Call tn_course_get next.' };
    let builds = 0;
    const build = () => (builds++, { text: source.description });
    const once = registry.rendered(source, 'description', build);
    expect(once).toEqual({ text: 'Call x_course_get next.' });
    expect(registry.rendered(source, 'description', build)).toBe(once);
    expect(builds).toBe(1);
    expect(registry.servedText('Then tn_transfer_resolve; not tn_unknown_thing or atn_course_get.')).toBe('Then x_transfer_resolve; not tn_unknown_thing or atn_course_get.');
  });
});
