// `npm start`. Plain JavaScript run by plain Node, so that Node itself loads the server's bundle
// (local/bundle.ts): about half the time tsx takes to load the server's ~1,300 modules one by one.
// `--bundle-only` (npm's postinstall) builds the bundle and stops, so a first start does not wait for it.
import { fileURLToPath, pathToFileURL } from 'node:url';

const bundleOnly = process.argv.includes('--bundle-only');
// A person watching a terminal: one short line per call, and no EMF metric lines (nothing collects them here).
// Set before the bundle loads, since its logger is made as its modules load.
process.env.TN_LOG_FORMAT ??= 'pretty';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
try {
  // Inside the try: an install without dev dependencies (no tsx, no esbuild) only warns.
  const { tsImport } = await import('tsx/esm/api');
  const { bundleOf } = await tsImport('../local/bundle.ts', import.meta.url);
  const { file } = await bundleOf('local/run-server.ts', { root: fileURLToPath(new URL('..', import.meta.url)) });
  // Imported here, not in bundle.ts: whatever a module tsx loaded imports goes through tsx's hooks too.
  if (!bundleOnly) await import(pathToFileURL(file).href);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  // An install still succeeds: `npm start` builds the bundle itself, and reports what stops it.
  if (bundleOnly) console.warn(`The local server's bundle was not built (npm start will try again): ${message}`);
  else {
    console.error(`Tutor Nexus could not start: ${message}`);
    process.exit(1);
  }
}
