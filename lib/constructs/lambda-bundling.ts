import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type BuildOptions, type Metafile } from 'esbuild';
import { VIEW_PAGES_DIR } from '../../functions/mcp/surface/view-pages.js';
import { buildViewPagesSync, viewNames, writeViewPages } from '../../web/views/build.js';

/** The repository root: bundling resolves entries and node_modules from here. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What esbuild is asked for every function. The stack's constructs, the bundle test and the cold-start
 * bench all bundle through bundleFunction below, so what is measured and tested is what deploys.
 */
export const LAMBDA_BUNDLING = {
  format: 'esm',
  target: 'node22',
  minify: true,
  mainFields: ['module', 'main'],
  // esbuild's ESM output has no `require`; some dependencies still call it for Node built-ins.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  // The AWS SDK is bundled, not taken from the runtime (CDK's default for Node.js 22): a cold start
  // that loads the minified clients from the bundle answers ~100 ms sooner than one that resolves the
  // runtime's unbundled copy (bench coldStart, same run), and the SDK version is the lockfile's.
  external: [] as string[],
  // The MCP SDK's Node shims validate elicitation answers with AJV (150 KB minified) at import; this
  // server never elicits, and the SDK's own cfworker validator serves the same interface.
  alias: { '@modelcontextprotocol/server/_shims': './functions/mcp/http/mcp-runtime-shims.ts' },
  /**
   * Code splitting (ADR 0049): every `import()` in the code, ours and our dependencies', becomes a chunk
   * loaded when that import runs, sharing modules with the entry instead of copying them. A cold start
   * loads `index.mjs` and the chunks it imports statically; the AWS SDK's credential providers for
   * profiles, SSO and web identity (imported by the SDK only when the environment has no credentials,
   * never in Lambda) and our parts loaded on some calls only (the router's forwarding code and OpenAPI
   * generator, the session's peer runtime, the authorization server's OpenID flow) stay on disk until then.
   */
  chunkNames: 'chunks/[name]-[hash]',
  /**
   * Parts bundled as files of their own, with their own copies of what they share with the entry: the
   * entry imports them by a relative path kept as it is (external), so its cold start never parses
   * them. Only where a shared chunk would cost the entry more than the copy costs the part: the AI SDK
   * imports all of zod (its locales included, 350 KB), which as a chunk shared with the entry every
   * cold start would load.
   */
  lazyParts: {
    'functions/session/handler.ts': [{ entry: 'functions/session/tutor/ai-runtime.ts', importPath: './ai-runtime.js' }],
  } as Record<string, readonly LazyPart[]>,
  /**
   * Entries whose functions serve MCP Apps views (their surface has views): the built pages are
   * written beside the bundle (`views/<name>.html`) and read from there on a view's first read, so
   * they never weigh on the bundle's cold start.
   */
  viewEntries: ['functions/router/handler.ts', 'functions/course/handler.ts', 'functions/transfer/handler.ts'] as readonly string[],
} as const;

export interface LazyPart {
  /** Source of the part, relative to the repository root. */
  entry: string;
  /** How the entry's modules import it; the part is written at that path beside the bundle. */
  importPath: string;
}

export interface FunctionBundleOptions {
  /** Source maps beside each file (deployed functions: stack traces name our sources). */
  sourcemap?: boolean;
  /** Repository folders copied into the bundle (e.g. the sample data an ingestion function loads). */
  copyIntoBundle?: readonly string[];
}

export interface FunctionBundle {
  /** `index.mjs`, the handler's file. */
  file: string;
  /** What a cold start parses before the first answer: `index.mjs` and the chunks it imports statically. */
  startBytes: number;
  /** Those files. */
  startFiles: string[];
  /** The sources in them (`node_modules/<package>/…`, `functions/…`), as esbuild names its inputs. */
  startInputs: string[];
  /** Chunks and lazy parts loaded only by the calls that import them. */
  onDemandBytes: number;
  /** esbuild's account of the main build (bench/bundle-breakdown.ts reads what each package weighs). */
  metafile: Metafile;
}

const common = (): BuildOptions => ({
  bundle: true,
  platform: 'node',
  format: LAMBDA_BUNDLING.format,
  target: LAMBDA_BUNDLING.target,
  minify: LAMBDA_BUNDLING.minify,
  mainFields: [...LAMBDA_BUNDLING.mainFields],
  banner: { js: LAMBDA_BUNDLING.banner },
  alias: LAMBDA_BUNDLING.alias,
  absWorkingDir: PROJECT_ROOT,
  logLevel: 'warning',
});

/**
 * Bundles one function into `outDir` as it deploys: `index.mjs` with its chunks, its lazy parts, and
 * the files it reads beside itself (views, copied folders). Synchronous: CDK
 * bundles assets in synchronous code.
 */
export function bundleFunction(entry: string, outDir: string, options: FunctionBundleOptions = {}): FunctionBundle {
  const lazyParts = LAMBDA_BUNDLING.lazyParts[entry] ?? [];
  const { metafile } = buildSync({
    ...common(),
    entryPoints: { index: entry },
    outdir: outDir,
    splitting: true,
    chunkNames: LAMBDA_BUNDLING.chunkNames,
    outExtension: { '.js': '.mjs' },
    sourcemap: options.sourcemap ?? false,
    external: [...LAMBDA_BUNDLING.external, ...lazyParts.map((part) => part.importPath)],
    metafile: true,
  });
  let lazyBytes = 0;
  for (const part of lazyParts) {
    const built = buildSync({
      ...common(),
      entryPoints: [part.entry],
      outfile: path.join(outDir, part.importPath),
      sourcemap: options.sourcemap ?? false,
      external: [...LAMBDA_BUNDLING.external],
      metafile: true,
    });
    lazyBytes += outputBytes(built.metafile, () => true);
  }
  if (LAMBDA_BUNDLING.viewEntries.includes(entry)) cpSync(builtViewPagesDir(), path.join(outDir, VIEW_PAGES_DIR), { recursive: true });
  for (const dir of options.copyIntoBundle ?? []) {
    mkdirSync(path.join(outDir, path.dirname(dir)), { recursive: true });
    cpSync(path.join(PROJECT_ROOT, dir), path.join(outDir, dir), { recursive: true });
  }
  // Dynamic imports are entry points too, in chunks/; the function's own is index.mjs.
  const index = Object.keys(metafile.outputs).find((output) => metafile.outputs[output]!.entryPoint === entry && path.basename(output) === 'index.mjs')!;
  const atStart = loadedAtStart(metafile, index);
  return {
    file: path.join(outDir, 'index.mjs'),
    startBytes: outputBytes(metafile, (output) => atStart.has(output)),
    startFiles: [...atStart].map((output) => path.resolve(PROJECT_ROOT, output)),
    startInputs: [...atStart].flatMap((output) => Object.keys(metafile.outputs[output]!.inputs)),
    onDemandBytes: outputBytes(metafile, (output) => !atStart.has(output)) + lazyBytes,
    metafile,
  };
}

/** The entry's output and every chunk it reaches through static imports: what loading it parses. */
function loadedAtStart(metafile: Metafile, entryOutput: string): Set<string> {
  const loaded = new Set<string>();
  const pending = [entryOutput];
  while (pending.length) {
    const output = pending.pop()!;
    if (loaded.has(output)) continue;
    loaded.add(output);
    for (const imported of metafile.outputs[output]?.imports ?? []) {
      if (imported.kind === 'import-statement' && metafile.outputs[imported.path]) pending.push(imported.path);
    }
  }
  return loaded;
}

/** Bytes of the JavaScript outputs (source maps aside) the filter keeps. */
function outputBytes(metafile: Metafile, keep: (output: string) => boolean): number {
  return Object.entries(metafile.outputs)
    .filter(([output]) => !output.endsWith('.map') && keep(output))
    .reduce((sum, [, output]) => sum + output.bytes, 0);
}

let viewPagesDir: string | undefined;

/** The MCP Apps view pages, built once per process into a folder the functions that serve them copy. */
function builtViewPagesDir(): string {
  if (!viewPagesDir) {
    viewPagesDir = mkdtempSync(path.join(os.tmpdir(), 'tn-views-'));
    writeViewPages(buildViewPagesSync(viewNames()), viewPagesDir);
  }
  return viewPagesDir;
}
