import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

/**
 * The smallest MCP server on the same SDK, as a Lambda-shaped entry: the cold-start bench bundles it
 * like our functions and times its first answer, the floor any server on this stack starts from.
 */
const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bare', version: '1.0.0' });
  server.registerTool('echo', { description: 'echo', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: '{"ok":true}' }] }));
  return server;
});

export async function handle(): Promise<{ status: number; body: string }> {
  const response = await handler.fetch(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    }),
  );
  return { status: response.status, body: await response.text() };
}
