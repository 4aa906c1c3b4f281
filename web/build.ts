import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, buildSync, type BuildOptions, type Metafile, type OutputFile } from 'esbuild';

const WEB_DIR = path.dirname(fileURLToPath(import.meta.url));

interface WebAsset {
  body: Uint8Array;
  contentType: string;
  /** Hashed names never change content: browsers and CloudFront may keep them for a year. */
  immutable: boolean;
}

/** The built app: `/index.html` plus hashed `/assets/*` files, keyed by URL path. */
export type WebBundle = Map<string, WebAsset>;

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const BUILD_OPTIONS: BuildOptions = {
  entryPoints: [path.join(WEB_DIR, 'src/main.tsx')],
  bundle: true,
  write: false,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: '/assets',
  entryNames: 'app-[hash]',
  // What only one page needs (the tutor's Markdown renderer) loads with that page.
  splitting: true,
  chunkNames: 'chunk-[hash]',
  legalComments: 'none',
  logLevel: 'silent',
  metafile: true,
  define: { 'process.env.NODE_ENV': '"production"' },
};

/**
 * One esbuild step from web/src to a bundle held in memory: the local server serves it from there and
 * the CDK construct writes it to a folder for the bucket, so no build output is ever stale or committed.
 */
export async function buildWebApp(): Promise<WebBundle> {
  const result = await build(BUILD_OPTIONS);
  return assemble(result.outputFiles ?? [], result.metafile);
}

/** The same build, synchronously: CDK constructs are built in synchronous code. */
export function buildWebAppSync(): WebBundle {
  const result = buildSync(BUILD_OPTIONS);
  return assemble(result.outputFiles ?? [], result.metafile);
}

function assemble(outputFiles: OutputFile[], metafile: Metafile | undefined): WebBundle {
  const bundle: WebBundle = new Map();
  for (const file of outputFiles) {
    const urlPath = file.path.slice(file.path.indexOf('/assets/'));
    bundle.set(urlPath, { body: file.contents, contentType: CONTENT_TYPES[path.extname(urlPath)] ?? 'application/octet-stream', immutable: true });
  }
  const script = [...bundle.keys()].find((name) => name.startsWith('/assets/app-') && name.endsWith('.js'));
  // Chunks the entry imports up front are fetched beside it rather than after it is parsed.
  const entry = Object.entries(metafile?.outputs ?? {}).find(([file]) => script && file.endsWith(script));
  const preloads = (entry?.[1].imports ?? []).filter((i) => i.kind === 'import-statement').map((i) => i.path.slice(i.path.indexOf('/assets/')));
  const style = [...bundle.keys()].find((name) => name.endsWith('.css'));
  const template = readFileSync(path.join(WEB_DIR, 'index.html'), 'utf8');
  const html = template
    .replace('<!-- styles -->', style ? `<link rel="stylesheet" href="${style}">` : '')
    .replace('<!-- script -->', [...preloads.map((chunk) => `<link rel="modulepreload" href="${chunk}">`), `<script type="module" src="${script}"></script>`].join('\n'));
  bundle.set('/index.html', { body: new TextEncoder().encode(html), contentType: CONTENT_TYPES['.html']!, immutable: false });
  return bundle;
}

/**
 * The headers every response of the app carries, wherever it is served (the local server, CloudFront):
 * a Content-Security-Policy that runs only the app's own scripts (and index.html's one inline script,
 * by its hash), connects only to its own origin and `connectSources` (the authorization server's, when
 * it lives elsewhere), and may never be framed (no clickjacking of /settings).
 */
export function webSecurityHeaders(indexHtml: string, options: { connectSources?: string[] } = {}): Record<string, string> {
  const inline = [...indexHtml.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => `'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`);
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${inline.join(' ')}`.trim(),
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...(options.connectSources ?? [])].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-opener-policy': 'same-origin',
  };
}

let building: Promise<WebBundle> | undefined;

/** Built once per process, on first use: servers that never serve a page never pay for it. */
export function webAppBundle(): Promise<WebBundle> {
  building ??= buildWebApp().catch((error: unknown) => {
    building = undefined;
    throw error;
  });
  return building;
}

/** Writes a bundle to a folder (the bucket's content in the CDK app). */
export function writeWebApp(bundle: WebBundle, outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
  for (const [urlPath, asset] of bundle) {
    const file = path.join(outDir, urlPath);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, asset.body);
  }
}
