import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { createNodeServer } from '../local/node-http.js';
import { round, summarize } from './stats.js';

/**
 * A bare SDK server with one trivial tool, on the same node:http adapter: the baseline. With `payload`,
 * a second tool answers that object as structured content and again as JSON text (as our tools do), so
 * the cost of an answer's size can be told apart from the cost of our framework.
 */
export async function startBareSdkServer(payload?: Record<string, unknown>): Promise<{ url: string; close(): Promise<void> }> {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'bare', version: '1.0.0' });
    server.registerTool('echo', { description: 'echo', inputSchema: z.object({}) }, async () => ({
      content: [{ type: 'text', text: '{"ok":true}' }],
    }));
    if (payload) {
      server.registerTool('payload', { description: 'a fixed answer', inputSchema: z.object({}).passthrough() }, async () => ({
        content: [{ type: 'text', text: JSON.stringify(payload) }],
        structuredContent: payload,
      }));
    }
    return server;
  });
  const server = createNodeServer((request) => handler.fetch(request));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface Target {
  name: string;
  url: string;
  tool: string;
  headers?: Record<string, string>;
  /** Arguments per call; a function lets each call ask for something different (cold-cache runs). */
  args?: Record<string, unknown> | ((id: number) => Record<string, unknown>);
}

export async function callOnce(target: Target, id: number): Promise<number> {
  const args = typeof target.args === 'function' ? target.args(id) : (target.args ?? {});
  const started = performance.now();
  const response = await fetch(target.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...target.headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: target.tool, arguments: args } }),
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"result"') || text.includes('"isError":true')) {
    throw new Error(`${target.name}: unexpected response ${response.status} ${text.slice(0, 200)}`);
  }
  return performance.now() - started;
}

/** Sequential latency, then throughput with `concurrency` clients for `seconds`. */
export async function measure(target: Target, options: { warmup: number; samples: number; concurrency: number; seconds: number }) {
  for (let i = 0; i < options.warmup; i++) await callOnce(target, i);
  const latencies: number[] = [];
  for (let i = 0; i < options.samples; i++) latencies.push(await callOnce(target, i));

  let completed = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, worker) => {
      let id = worker * 1_000_000;
      while (performance.now() < deadline) {
        await callOnce(target, id++);
        completed++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { latencyMs: summarize(latencies), callsPerSecond: round(completed / elapsed, 1), concurrency: options.concurrency };
}
