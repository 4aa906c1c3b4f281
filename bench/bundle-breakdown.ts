import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleFunction } from '../lib/constructs/lambda-bundling.js';

/**
 * What a function's cold start loads, by package: `npx tsx bench/bundle-breakdown.ts functions/router/handler.ts`.
 * Bundles the entry as the stack does and sums esbuild's bytes per input over index.mjs and the chunks
 * it imports statically (ADR 0049's appendix was measured with it).
 */
const entry = process.argv[2];
if (!entry) throw new Error('usage: bundle-breakdown.ts <entry> [rows]');
const dir = mkdtempSync(path.join(os.tmpdir(), 'tn-breakdown-'));
try {
  const built = bundleFunction(entry, dir);
  const start = new Set(built.startFiles.map((file) => path.relative(process.cwd(), file)));
  const byPackage = new Map<string, number>();
  for (const [output, { inputs }] of Object.entries(built.metafile.outputs)) {
    if (!start.has(path.relative(process.cwd(), path.resolve(output)))) continue;
    for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
      const name = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.split('/').slice(0, 3).join('/');
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  console.log(`${entry}: ${built.startBytes} bytes at start, ${built.onDemandBytes} on demand`);
  for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 30))) {
    console.log(`${(bytes / 1000).toFixed(1).padStart(7)} KB  ${name}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
