import * as z from 'zod/v4';
import { DOMAINS, defineTool } from '../tools/define-tool.js';
import { annotationsOf, jsonSchemasOf, metadataOf } from '../tools/json-schemas.js';

const ToolSummarySchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  domain: z.enum(DOMAINS),
  tags: z.array(z.string()),
  category: z.string(),
  access: z.enum(['public', 'user']),
  annotations: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
});

/** Seed 004: bounded-context discovery, so an agent loads only the schemas it needs. */
export const toolsListTool = defineTool({
  name: 'tools_list',
  domain: 'tools',
  title: 'Discover tools',
  description:
    'Lists the tools this endpoint serves, filtered by domain (session, course, transfer, user) or tag, optionally with their ' +
    'input and output JSON Schemas. Use this first to load only the tools a task needs instead of every schema. Returns ' +
    '{ domains, tools }. Example: { "domain": "user", "includeSchemas": true }.',
  version: '1.0.0',
  input: z.strictObject({
    domain: z.enum(DOMAINS).optional().describe('Only tools of this domain'),
    tag: z.string().min(1).max(40).optional().describe('Only tools carrying this tag, e.g. "byok"'),
    includeSchemas: z.boolean().default(false).describe('Include each tool\'s input and output JSON Schema'),
  }),
  output: z.object({
    domains: z.array(z.object({ domain: z.enum(DOMAINS), toolCount: z.number().int() })),
    tools: z.array(ToolSummarySchema),
  }),
  category: 'query',
  permissions: [],
  access: 'public',
  responseTime: 'fast',
  cacheable: true,
  cacheTTL: 300,
  idempotent: true,
  tags: ['discovery', 'meta'],
  examples: [
    { description: 'User-domain tools with schemas', input: { domain: 'user', includeSchemas: true }, expect: 'success' },
    { description: 'An unknown domain is refused', input: { domain: 'billing' }, expect: 'BAD_REQUEST' },
  ],
  async handler(args, ctx) {
    const registry = ctx.registry;
    const all = registry.getAll();
    const selected = all.filter((tool) => (!args.domain || tool.domain === args.domain) && (!args.tag || tool.tags.includes(args.tag)));
    const domains = DOMAINS.map((domain) => ({ domain, toolCount: all.filter((t) => t.domain === domain).length })).filter((d) => d.toolCount > 0);
    return {
      data: {
        domains,
        // Each tool's summary is the same for every call: built and renamed for the prefix once per registry.
        tools: selected.map((tool) =>
          registry.rendered(tool, args.includeSchemas ? 'tools_list+schemas' : 'tools_list', () => ({
            name: registry.servedName(tool),
            title: tool.title,
            description: tool.description,
            domain: tool.domain,
            tags: tool.tags,
            category: tool.category,
            access: tool.access,
            annotations: annotationsOf(tool),
            metadata: metadataOf(tool),
            ...(args.includeSchemas ? { inputSchema: jsonSchemasOf(tool).input, outputSchema: jsonSchemasOf(tool).output } : {}),
          })),
        ),
      },
      hints: {
        confidence: [{ name: 'matched-share', value: selected.length ? 1 : 0 }],
        nextActions: selected.length
          ? []
          : [{ action: 'broaden-filter', priority: 'high', tool: `${registry.prefix}tools_list`, description: 'drop the tag or domain filter' }],
        validityPeriod: 'long',
      },
    };
  },
});
