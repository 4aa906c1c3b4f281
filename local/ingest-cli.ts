import { parseArgs } from 'node:util';
import { publishCatalogIndex } from '../functions/course/catalog-index.js';
import type { IngestionRun } from '../functions/ingest/ingest-source.js';
import { ingestorNamed, INGESTORS } from '../functions/ingest/sources.js';
import { withStore } from './store-session.js';

const USAGE = `Usage: npm run ingest -- --source <name> --file <path|url> [--file <path|url> …]

Sources:
${INGESTORS.map((s) => `  ${s.name.padEnd(20)} ${s.description}`).join('\n')}

Loads into TN_DYNAMODB_ENDPOINT when set, the AWS table with TN_RUNTIME=aws, or DynamoDB Local on
TN_DATA_DIR (stop \`npm start\` first). Re-running an unchanged file writes nothing.`;

export async function runIngestCli(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  let values: { source?: string; file?: string[] };
  try {
    ({ values } = parseArgs({ args: argv, options: { source: { type: 'string' }, file: { type: 'string', multiple: true } }, strict: true }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const ingestor = values.source ? ingestorNamed(values.source) : undefined;
  if (!ingestor || !values.file?.length) {
    console.error(values.source && !ingestor ? `Unknown source "${values.source}".\n\n${USAGE}` : USAGE);
    return 2;
  }
  return withStore(env, async (store) => {
    let failed = false;
    let changed = false;
    for (const file of values.file!) {
      const run = await ingestor.run(store, file);
      console.log(describeRun(run));
      failed ||= run.status === 'failed';
      changed ||= run.catalogVersion !== undefined;
    }
    if (changed) {
      const index = await publishCatalogIndex(store);
      console.log(`search index of catalog version ${index.version}: ${index.courses} courses, ${index.bytes} bytes`);
    }
    return failed ? 1 : 0;
  });
}

export function describeRun(run: IngestionRun): string {
  const c = run.counts;
  const head = `${run.source} ${run.origin}: ${run.status} in ${run.durationMs} ms`;
  if (run.status === 'failed') return `${head}\n  ${run.errors.join('\n  ')}`;
  if (run.status === 'not-modified') return `${head} (source not modified since the last run)`;
  return `${head}: ${c.parsed} records, ${c.written} written, ${c.unchanged} unchanged, ${c.retired} retired, ${c.rejected} quarantined (run ${run.runId})`;
}
