import { spawn } from 'node:child_process';
import path from 'node:path';
import { round } from './stats.js';

const AUTOCANNON = path.resolve('node_modules/autocannon/autocannon.js');

export interface ExternalLoadTarget {
  name: string;
  url: string;
  tool: string;
  args?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * Throughput measured by autocannon in a process of its own: a load generator sharing the server's
 * event loop caps what the server can show (the in-process figure for the bare server was a seventh
 * of this one). Every answer must be a 2xx JSON-RPC result.
 */
export async function loadFromOutside(target: ExternalLoadTarget, options: { connections: number; seconds: number }) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: target.tool, arguments: target.args ?? {} } });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...target.headers };
  const args = [AUTOCANNON, '--json', '-c', String(options.connections), '-d', String(options.seconds), '-m', 'POST', '-b', body];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(target.url);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`autocannon exited ${code}: ${stderr.slice(0, 300)}`))));
  });
  const result = JSON.parse(output) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    throughput: { average: number };
    non2xx: number;
    errors: number;
  };
  if (result.non2xx || result.errors) throw new Error(`${target.name}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  return {
    callsPerSecond: round(result.requests.average, 1),
    latencyUnderLoadMs: { p50: result.latency.p50, p99: result.latency.p99 },
    bytesPerCall: Math.round(result.throughput.average / Math.max(result.requests.average, 1)),
    connections: options.connections,
    seconds: options.seconds,
  };
}
