import { parseArgs } from 'node:util';
import { publishCatalogIndex } from '../functions/catalog/catalog-index.js';
import type { IngestionRun } from '../functions/ingest/ingest-source.js';
import { ingestorNamed, INGESTORS } from '../functions/ingest/sources.js';
import { CRAWLABLE_SOURCES, crawlEnvironment, CrawlSettingError, isCrawlable, type CrawlRequest } from '../functions/ingest/crawl/crawlers.js';
import { sfuTerm } from '../functions/ingest/crawl/sfu-outlines-crawler.js';
import { crawlSource, describeCrawlRun } from '../functions/ingest/crawl/crawl-source.js';
import { withStore } from './store-session.js';

const USAGE = `Usage: npm run ingest -- --source <name> --file <path|url> [--file <path|url> …]
       npm run ingest -- --source bctransferguide --crawl [--sender <code> …]
       npm run ingest -- --source sfu-outlines --crawl [--term <year/term> …]

Sources:
${INGESTORS.map((s) => `  ${s.name.padEnd(20)} ${s.description}`).join('\n')}

--crawl reads ${CRAWLABLE_SOURCES.join(' and ')} from their live sites the way the sites do: every
sending institution the BC Transfer Guide lists (or each --sender: LANG, langara, "Langara College"),
or SFU's course outlines for each --term (2026/fall; default: the current term and later ones).
At most two requests at a time per host; a page that did not change costs a 304 and writes nothing;
Ctrl-C stops at once and the same command resumes where it stopped.

Loads into TN_DYNAMODB_ENDPOINT when set, the AWS table with TN_RUNTIME=aws, or DynamoDB Local on
TN_DATA_DIR (stop \`npm start\` first). Re-running an unchanged file writes nothing.`;

const usageError = (message: string) => {
  console.error(`${message}\n\n${USAGE}`);
  return 2;
};

export async function runIngestCli(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  let values: { source?: string; file?: string[]; crawl?: boolean; sender?: string[]; term?: string[] };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        source: { type: 'string' },
        file: { type: 'string', multiple: true },
        crawl: { type: 'boolean' },
        sender: { type: 'string', multiple: true },
        term: { type: 'string', multiple: true },
      },
      strict: true,
    }));
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  const ingestor = values.source ? ingestorNamed(values.source) : undefined;
  if (values.source && !ingestor) return usageError(`Unknown source "${values.source}".`);
  if (!ingestor) return usageError('--source is required.');
  if (values.crawl) {
    const request = crawlRequest(ingestor.name, values);
    return typeof request === 'string' ? usageError(request) : crawl(request, env);
  }
  if (values.sender?.length || values.term?.length) return usageError('--sender and --term go with --crawl.');
  if (!values.file?.length) return usageError(`--file (or --crawl, for ${CRAWLABLE_SOURCES.join(' and ')}) is required.`);
  return withStore(env, async (store) => {
    let failed = false;
    let changed = false;
    for (const file of values.file!) {
      // Another run of the source (the schedule, a crawl, another terminal) holds it: say so while waiting.
      const onWait = ({ owner, until }: { owner: string; until: Date }) => console.log(`waiting for another run of ${ingestor.name} (${owner}; it holds the source until ${until.toISOString()} unless it renews)…`);
      const run = await ingestor.run(store, file, { lease: { onWait } });
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

/** The crawl the flags ask for, or why they do not make one. */
function crawlRequest(source: string, values: { file?: string[]; sender?: string[]; term?: string[] }): CrawlRequest | string {
  if (!isCrawlable(source)) return `--crawl works for ${CRAWLABLE_SOURCES.join(' and ')}, not "${source}".`;
  if (values.file?.length) return '--crawl reads the live site; give --file or --crawl, not both.';
  const senders = (values.sender ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  const terms = (values.term ?? []).flatMap((t) => t.split(',')).map((t) => t.trim()).filter(Boolean);
  if (senders.length && source !== 'bctransferguide') return '--sender goes with --source bctransferguide.';
  if (terms.length && source !== 'sfu-outlines') return '--term goes with --source sfu-outlines.';
  const canonical = terms.map((term) => sfuTerm(term) ?? term);
  const bad = canonical.filter((term, i) => term === terms[i] && !sfuTerm(term));
  if (bad.length) return `--term must name an SFU term such as 2026/fall, 2027/spring or 2026/summer; got ${bad.map((t) => `"${t}"`).join(', ')}.`;
  return { source, ...(senders.length ? { senders } : {}), ...(canonical.length ? { terms: canonical } : {}) };
}

async function crawl(request: CrawlRequest, env: Record<string, string | undefined>): Promise<number> {
  try {
    crawlEnvironment(env);
  } catch (error) {
    if (error instanceof CrawlSettingError) return usageError(error.message);
    throw error;
  }
  const stop = new AbortController();
  const interrupt = () => {
    if (stop.signal.aborted) return;
    console.error('\nstopping: the crawl saves where it is; run the same command to resume');
    stop.abort();
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    return await withStore(env, async (store) => {
      const outcome = await crawlSource(store, request, { env, signal: stop.signal, log: (message, fields) => console.log(`${message}${fields?.unit ? `: ${String(fields.unit)} ${String(fields.error ?? '')}` : ''}`) });
      console.log(describeCrawlRun(outcome));
      if (outcome.catalogChanged) {
        const index = await publishCatalogIndex(store);
        console.log(`search index of catalog version ${index.version}: ${index.courses} courses, ${index.bytes} bytes`);
      }
      if (outcome.status === 'paused') return stop.signal.aborted ? 130 : 0;
      return outcome.status === 'complete' || outcome.status === 'fresh' ? 0 : 1;
    });
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}

function describeRun(run: IngestionRun): string {
  const c = run.counts;
  const head = `${run.source} ${run.origin}: ${run.status} in ${run.durationMs} ms`;
  if (run.status === 'failed') return `${head}\n  ${run.errors.join('\n  ')}`;
  if (run.status === 'not-modified') return `${head} (source not modified since the last run)`;
  return `${head}: ${c.parsed} records, ${c.written} written, ${c.unchanged} unchanged, ${c.retired} retired, ${c.rejected} quarantined (run ${run.runId})`;
}
