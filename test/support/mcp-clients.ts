import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import { ErrorResponseSchema, type ErrorResponse } from '../../functions/mcp/tools/errors.js';
import { connectClient, TEST_TOKEN } from './test-server.js';

/** The clients real hosts embed: SDK v1 (most hosts today) and SDK v2 in both protocol eras. */
export const CLIENT_KINDS = ['v1', 'v2-legacy', 'v2-modern'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export interface ToolResult {
  isError?: boolean;
  content: unknown[];
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

/** What a test needs of either SDK's client. */
export interface AnyClient {
  listTools(): Promise<{ tools: { name: string; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<ToolResult>;
  close(): Promise<void>;
}

export async function connectAnyClient(kind: ClientKind, url: string, options: { token?: string | null; path?: string } = {}): Promise<AnyClient> {
  if (kind !== 'v1') {
    return (await connectClient(url, { ...options, era: kind === 'v2-modern' ? 'modern' : 'legacy' })) as unknown as AnyClient;
  }
  const token = options.token === undefined ? TEST_TOKEN : options.token;
  const client = new V1Client({ name: 'tutor-nexus-tests-v1', version: '1.0.0' });
  const transport = new V1Transport(new URL(`${url}${options.path ?? '/mcp'}`), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  await client.connect(transport);
  return client as unknown as AnyClient;
}

/**
 * The ErrorResponse of an isError result, read the way a host shows it: the first text block.
 * `_meta.error` must say the same, and no structuredContent may stand beside it.
 */
export function errorResponseOf(result: ToolResult): ErrorResponse {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const first = result.content[0] as { type: string; text: string };
  expect(first.type).toBe('text');
  const error = ErrorResponseSchema.parse(JSON.parse(first.text));
  expect(result._meta?.error).toEqual(error);
  return error;
}
