/**
 * What esbuild is asked for every function. The stack's constructs, the bundle test and the cold-start
 * bench all read it, so what is measured and tested is what deploys.
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
  alias: { '@modelcontextprotocol/server/_shims': './functions/shared/http/mcp-runtime-shims.ts' },
  /**
   * Parts of an entry loaded only on some calls, bundled as files of their own beside it: the entry
   * imports them by a relative path kept as it is (external), so its cold start never parses them.
   */
  lazyParts: {
    'functions/session/handler.ts': [
      { entry: 'functions/session/tutor/ai-runtime.ts', importPath: './ai-runtime.js' },
      { entry: 'functions/session/peer-runtime.ts', importPath: './peer-runtime.js' },
    ],
    'functions/router/handler.ts': [{ entry: 'functions/router/openapi.ts', importPath: './openapi.js' }],
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

/** The external list for one entry: the runtime's AWS SDK plus the entry's lazy parts. */
export function externalsFor(entry: string): string[] {
  return [...LAMBDA_BUNDLING.external, ...(LAMBDA_BUNDLING.lazyParts[entry] ?? []).map((part) => part.importPath)];
}

/** The esbuild command line that bundles one lazy part into a function's output folder (CDK's after-bundling hook). */
export function lazyPartCommand(inputDir: string, outputDir: string, part: LazyPart): string {
  const args = [
    `"${inputDir}/node_modules/.bin/esbuild"`,
    `"${inputDir}/${part.entry}"`,
    '--bundle',
    '--platform=node',
    `--format=${LAMBDA_BUNDLING.format}`,
    `--target=${LAMBDA_BUNDLING.target}`,
    ...(LAMBDA_BUNDLING.minify ? ['--minify'] : []),
    `--main-fields=${LAMBDA_BUNDLING.mainFields.join(',')}`,
    `"--banner:js=${LAMBDA_BUNDLING.banner}"`,
    ...LAMBDA_BUNDLING.external.map((external) => `"--external:${external}"`),
    `"--outfile=${outputDir}/${part.importPath.replace(/^\.\//, '')}"`,
    '--log-level=warning',
  ];
  return args.join(' ');
}
