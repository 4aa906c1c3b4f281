import { readFileSync } from 'node:fs';
import * as z from 'zod/v4';
import { describe, expect, it } from 'vitest';
import { registryServerJson, serverCard, SERVER_CARD_SCHEMA, SERVER_JSON_SCHEMA } from '../../functions/mcp/discovery/server-card.js';

// The published rules both documents must meet (experimental-ext-server-card schema, MCP Registry server.json).
const name = z.string().min(3).max(200).regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
const description = z.string().min(1).max(100);
const version = z.string().max(255).refine((v) => !/[\^~<>=*x]/.test(v.replace(/-.*$/, '')), 'no version ranges');
const repository = z.object({ url: z.url(), source: z.string().min(1) });
const remoteUrl = z.string().regex(/^(https?:\/\/[^\s]+|\{[a-zA-Z_][a-zA-Z0-9_]*\}[^\s]*)$/);
const ServerCard = z.strictObject({
  $schema: z.literal(SERVER_CARD_SCHEMA),
  name,
  version,
  description,
  title: z.string().min(1).max(100),
  websiteUrl: z.url(),
  repository,
  icons: z.array(z.object({ src: z.string().startsWith('data:image/svg+xml;base64,'), mimeType: z.string(), sizes: z.array(z.string()) })),
  remotes: z.array(z.strictObject({ type: z.enum(['streamable-http', 'sse']), url: remoteUrl, supportedProtocolVersions: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)).min(1) })).min(1),
});
const ServerJson = z.strictObject({
  $schema: z.literal(SERVER_JSON_SCHEMA),
  name,
  title: z.string().min(1).max(100),
  description,
  version,
  repository,
  remotes: z.array(
    z.strictObject({
      type: z.enum(['streamable-http', 'sse']),
      url: remoteUrl,
      variables: z.record(z.string(), z.strictObject({ description: z.string().min(1), isRequired: z.boolean() })),
    }),
  ),
});

describe('discovery documents', () => {
  it('serves a server card that meets the SEP-2127 schema and names its own endpoint', () => {
    const card = ServerCard.parse(serverCard('https://tutor.example.edu'));
    expect(card.remotes[0]!.url).toBe('https://tutor.example.edu/mcp');
    expect(card.remotes[0]!.supportedProtocolVersions).toEqual(expect.arrayContaining(['2025-11-25', '2026-07-28']));
  });

  it('commits a server.json for the MCP Registry that meets its schema, with every URL variable described', () => {
    const committed = JSON.parse(readFileSync('server.json', 'utf8')) as unknown;
    expect(committed).toEqual(registryServerJson());
    const entry = ServerJson.parse(committed);
    for (const remote of entry.remotes) {
      const used = [...remote.url.matchAll(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g)].map((m) => m[1]);
      expect(Object.keys(remote.variables).sort()).toEqual(used.sort());
    }
    // Both say the same thing about the server.
    const card = serverCard('https://x.example');
    expect([entry.name, entry.description, entry.version]).toEqual([card.name, card.description, card.version]);
  });
});
