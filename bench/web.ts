import { gzipSync } from 'node:zlib';
import { buildWebApp } from '../web/build.js';

/** The budget: the first load of the web app, JS and CSS gzipped. */
const FIRST_LOAD_BUDGET_BYTES = 150 * 1024;

/**
 * What a browser downloads to show the first page: index.html as served, then every script and
 * stylesheet it references, each gzipped at level 9 (what CloudFront's compression is close to).
 */
export async function measureWebApp(baseUrl: string) {
  const html = await (await fetch(`${baseUrl}/`)).text();
  const referenced = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const files = await Promise.all(
    referenced.map(async (path) => {
      const body = new Uint8Array(await (await fetch(new URL(path, baseUrl))).arrayBuffer());
      return { path, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
    }),
  );
  const firstLoadGzipBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  // Chunks a page loads when it needs them (the tutor's Markdown renderer): not part of the first load.
  const bundle = await buildWebApp();
  const lazy = [...bundle.entries()]
    .filter(([path]) => path.endsWith('.js') && !referenced.includes(path))
    .map(([path, asset]) => ({ path, bytes: asset.body.length, gzipBytes: gzipSync(asset.body, { level: 9 }).length }));
  const builds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await buildWebApp();
    builds.push(performance.now() - started);
  }
  return {
    firstLoad: {
      name: 'index.html and the JS and CSS it references (gzip -9)',
      files,
      htmlGzipBytes: gzipSync(html, { level: 9 }).length,
      jsCssGzipBytes: firstLoadGzipBytes,
      budgetBytes: FIRST_LOAD_BUDGET_BYTES,
      shareOfBudget: Math.round((firstLoadGzipBytes / FIRST_LOAD_BUDGET_BYTES) * 1000) / 1000,
    },
    onDemand: { name: 'chunks loaded by the pages that use them (gzip -9)', files: lazy, jsGzipBytes: lazy.reduce((sum, f) => sum + f.gzipBytes, 0) },
    buildMs: { name: 'esbuild build of web/ (in memory, minified), median of 5', median: Math.round(builds.sort((a, b) => a - b)[2]!) },
  };
}
