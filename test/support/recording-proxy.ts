import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a client sent to DynamoDB, as it went over the wire, and what came back. */
export interface ProxiedCall {
  /** DynamoDB's operation name, from X-Amz-Target: GetItem, Query… */
  operation: string;
  request: Record<string, any>;
  response: Record<string, any>;
  /** Bytes of the response body. */
  responseBytes: number;
}

export interface RecordingProxy {
  url: string;
  calls: ProxiedCall[];
  clear(): void;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of DynamoDB Local that records every request and answer: what a server sends,
 * counted on the wire rather than inside the process (retries and every client included).
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const calls: ProxiedCall[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(parts);
            const operation = String(incoming.headers['x-amz-target'] ?? '').split('.').pop() ?? '';
            calls.push({ operation, request: parse(body), response: parse(text), responseBytes: text.length });
            outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
            outgoing.end(text);
          });
        },
      );
      forward.on('error', (error) => {
        outgoing.writeHead(502);
        outgoing.end(String(error));
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    clear: () => void calls.splice(0),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function parse(body: Buffer): Record<string, any> {
  try {
    return JSON.parse(body.toString('utf8') || '{}');
  } catch {
    return {};
  }
}

/** A string attribute of a DynamoDB JSON item. */
export const attribute = (item: Record<string, any>, name: string): string | undefined => item?.[name]?.S;

/**
 * Read units DynamoDB would charge for a Query or GetItem answered with these items: their sizes (names and
 * values, binary by length) summed, rounded up to 4 KB, halved for an eventually consistent read.
 */
export function readUnits(items: Record<string, any>[], consistent = false): number {
  const bytes = items.reduce((sum, item) => sum + itemBytes(item), 0);
  const units = Math.max(1, Math.ceil(bytes / 4096));
  return consistent ? units : units / 2;
}

function itemBytes(item: Record<string, any>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value), 0);
}

function valueBytes(value: Record<string, any>): number {
  if ('S' in value) return Buffer.byteLength(value.S);
  if ('N' in value) return Math.ceil(String(value.N).length / 2) + 1;
  if ('B' in value) return Buffer.from(value.B, 'base64').length;
  if ('BOOL' in value || 'NULL' in value) return 1;
  if ('SS' in value) return value.SS.reduce((s: number, v: string) => s + Buffer.byteLength(v), 0);
  if ('L' in value) return 3 + value.L.reduce((s: number, v: Record<string, any>) => s + 1 + valueBytes(v), 0);
  if ('M' in value) return 3 + Object.entries(value.M).reduce((s: number, [k, v]) => s + 1 + Buffer.byteLength(k) + valueBytes(v as Record<string, any>), 0);
  return 0;
}
