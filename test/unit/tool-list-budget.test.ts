import { describe, expect, it } from 'vitest';
import { ALL_DOMAIN_TOOLS, ENDPOINT_TOOLS } from '../../functions/all-tools.js';
import { ALL_SURFACE } from '../../functions/all-contracts.js';
import { listTools } from '../../functions/mcp/http/mcp-server.js';
import { DOMAINS } from '../../functions/mcp/tools/define-tool.js';
import { jsonSchemasOf } from '../../functions/mcp/tools/json-schemas.js';
import { ToolRegistry } from '../../functions/mcp/tools/registry.js';

/** What a host puts in front of its model on every conversation, in characters of JSON (~4 per token). */
const ALL_TOOLS_BUDGET = 60_000;
const ONE_TOOL_BUDGET = 16_000;
const DOMAIN_BUDGET = 25_000;

// With the MCP Apps views' `_meta` the tools that have one carry (ADR 0038), as /mcp serves them.
const listed = (definitions = ALL_DOMAIN_TOOLS) => listTools(new ToolRegistry('tn_', [...definitions, ...ENDPOINT_TOOLS]), ALL_SURFACE);
const size = (value: unknown) => JSON.stringify(value).length;

describe('tools/list as a host pays for it', () => {
  it(`stays within ${ALL_TOOLS_BUDGET} characters for every tool on /mcp, and ${ONE_TOOL_BUDGET} for any one tool`, () => {
    const tools = listed();
    expect(tools.length).toBeGreaterThan(30);
    console.info(`[budget] tools/list on /mcp: ${size(tools)} characters for ${tools.length} tools; largest ${Math.max(...tools.map(size))}`);
    expect(size(tools)).toBeLessThanOrEqual(ALL_TOOLS_BUDGET);
    for (const tool of tools) expect(size(tool), tool.name).toBeLessThanOrEqual(ONE_TOOL_BUDGET);
  });

  it.each(DOMAINS)(`keeps /mcp/%s within ${DOMAIN_BUDGET} characters`, (domain) => {
    expect(size(listed(ALL_DOMAIN_TOOLS.filter((tool) => tool.domain === domain)))).toBeLessThanOrEqual(DOMAIN_BUDGET);
  });

  it('still says what, when and returns, and describes every parameter', () => {
    for (const tool of listed()) {
      expect(tool.description.length, tool.name).toBeGreaterThanOrEqual(50);
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.annotations.readOnlyHint !== undefined && tool.annotations.destructiveHint !== undefined, tool.name).toBe(true);
      for (const [name, parameter] of Object.entries((tool.inputSchema as { properties?: Record<string, { description?: string }> }).properties ?? {})) {
        expect(parameter.description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
  });

  it('describes tools without instructing the model (directory reviewers refuse "always call X first")', () => {
    for (const tool of listed()) {
      expect(tool.description, tool.name).not.toMatch(/\b(always|must|first)\b[^.]*\b(call|use|invoke)\b|\bIMPORTANT\b|\bdo not (call|use)\b/i);
    }
  });

  it('lists schemas that accept everything the full ones do: every parameter and output field, required inputs as required', () => {
    const registry = new ToolRegistry('tn_', [...ALL_DOMAIN_TOOLS, ...ENDPOINT_TOOLS]);
    for (const tool of listed()) {
      const full = jsonSchemasOf(registry.get(tool.name)!);
      const keys = (schema: unknown) => Object.keys((schema as { properties?: object }).properties ?? {});
      expect(keys(tool.inputSchema), tool.name).toEqual(keys(full.input));
      expect(keys(tool.outputSchema), tool.name).toEqual(keys(full.output));
      expect((tool.inputSchema as { required?: string[] }).required ?? [], tool.name).toEqual((full.input as { required?: string[] }).required ?? []);
    }
  });
});
