import { readFile } from 'node:fs/promises';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import path from 'node:path';
import { catalogIndexFor, SearchIndex } from '../functions/catalog/catalog-index.js';
import { getCatalogVersion } from '../functions/catalog/catalog-store.js';
import { loadSearchIndex } from '../functions/catalog/search/search-index-store.js';
import { decodeIndex, encodeIndex } from '../functions/catalog/search/index-codec.js';
import { TypedRanking } from '../functions/catalog/search/typed-ranking.js';
import type { CourseFragment } from '../functions/catalog/catalog-model.js';
import { coursesFromFragments, type CourseView } from '../functions/catalog/course-view.js';
import { ingestorNamed, sampleFiles, sourceNamed } from '../functions/ingest/sources.js';
import { putAll } from '../functions/platform/store/batch-writes.js';
import { createStore, type Store } from '../functions/platform/store/dynamo-client.js';
import { ensureTable } from '../local/ensure-table.js';
import { compareSpeed, judgedSets, measureRelevance } from './relevance.js';
import { round, summarize } from './stats.js';

/** The real courses of the shipped sample, parsed straight from the files (no store involved). */
export async function realCourses(): Promise<CourseView[]> {
  const fragments: CourseFragment[] = [];
  for (const { source, file } of sampleFiles('full')) {
    const adapter = sourceNamed(source);
    if (!adapter) continue;
    const raw = await readFile(path.join('data/sample', file), 'utf8');
    const output = adapter.parse(raw, { ingestedAt: new Date().toISOString(), origin: file });
    fragments.push(...output.records.filter((r): r is CourseFragment => r.kind === 'course'));
  }
  return coursesFromFragments(fragments);
}

/**
 * A synthetic catalog of `size` courses generated from the real ones: each copy keeps a real
 * course's subject, title and description words, moved to a synthetic institution and number.
 */
export function syntheticCatalog(real: CourseView[], size: number): CourseView[] {
  const courses: CourseView[] = [];
  for (let i = 0; i < size; i++) {
    const base = real[i % real.length]!;
    const copy = Math.floor(i / real.length);
    const institution = `synth-${copy}`;
    const number = String((Number(/^\d+/.exec(base.number)?.[0] ?? 100) + copy) % 1000).padStart(3, '1');
    const code = `${base.subject} ${number}`;
    courses.push({ ...base, institution, number, code, ref: `${institution}:${code}:${i}` });
  }
  return courses;
}

/**
 * The ranking's relevance on judged student queries over the shipped catalog (success@3, MRR@10,
 * off-topic in the top 3), beside the ranking as typed (BM25F alone, the ranking before ADR 0033);
 * and its speed against the ranking as typed over `size` synthetic courses, the same queries in turn.
 */
export async function measureSearchRelevance(size: number, queries: number) {
  const real = await realCourses();
  const sets = await judgedSets();
  const relevance = measureRelevance(SearchIndex.build(real), sets);
  const judged = [...sets.judged, ...sets.secondDev, ...sets.secondHeldOut];
  const index = decodeIndex(buildArtifact(syntheticCatalog(real, size)).artifact);
  const asTyped = new TypedRanking(index);
  const phrases = titlePhrases(real);
  const synthInstitution = index.institutions[Math.min(3, index.institutions.length - 1)]!;
  const typed = Array.from({ length: queries }, (_, i) => ({ text: phrases[(i * 7919) % phrases.length]!, filters: i % 2 ? { institution: synthInstitution } : {} }));
  const students = Array.from({ length: Math.min(queries, 500) }, (_, i) => ({ text: judged[i % judged.length]!.query, filters: {} }));
  const rankings = { ranking: (text: string, filters: object) => index.query(text, filters), asTyped: (text: string, filters: object) => asTyped.query(text, filters) };
  return {
    ...relevance,
    speed: {
      courses: index.size,
      titlePhrases: { name: 'two-word title phrases, half within one institution', ...compareSpeed(typed, rankings) },
      studentQueries: { name: 'the judged queries, every institution', ...compareSpeed(students, rankings) },
    },
  };
}

/** Two-word phrases from real titles, so benchmark queries hit the way students' searches do. */
function titlePhrases(real: CourseView[]): string[] {
  return real.map((c) => (c.title ?? '').split(/\s+/).slice(0, 2).join(' ')).filter((p) => p.length > 4);
}

export async function measureSearch(size: number, queries: number) {
  const real = await realCourses();
  const catalog = syntheticCatalog(real, size);
  global.gc?.();
  const before = memoryInUse();
  const { artifact, buildMs } = buildArtifact(catalog);
  // What a cold function pays: decode the stored artifact. Its memory is the artifact's buffer (the
  // index is views over it) plus the query scratch; the build's own garbage is collected first.
  global.gc?.();
  const loadStarted = performance.now();
  const index = decodeIndex(artifact);
  const loadMs = performance.now() - loadStarted;
  global.gc?.();
  const after = memoryInUse();

  const phrases = titlePhrases(real);
  const pick = (i: number) => phrases[(i * 7919) % phrases.length]!;
  for (let i = 0; i < 20; i++) index.query(pick(i));
  const indexed: number[] = [];
  for (let i = 0; i < queries; i++) {
    const t = performance.now();
    index.query(pick(i), i % 2 ? { institution: 'synth-3' } : {});
    indexed.push(performance.now() - t);
  }
  // Baseline in the same run: what a search without an index costs, a linear scan of the same catalog.
  const scans: number[] = [];
  for (let i = 0; i < Math.min(queries, 100); i++) {
    const words = pick(i).toLowerCase().split(/\s+/);
    const t = performance.now();
    catalog.filter((c) => words.every((w) => `${c.title} ${c.description}`.toLowerCase().includes(w)));
    scans.push(performance.now() - t);
  }
  const search = summarize(indexed);
  const scan = summarize(scans);
  return {
    courses: index.size,
    realCourses: real.length,
    indexBuildMs: round(buildMs, 1),
    artifactMB: round(artifact.length / 1024 / 1024, 1),
    artifactLoadMs: round(loadMs, 1),
    indexMemoryMB: gcAvailable() ? round((after - before) / 1024 / 1024, 1) : null,
    searchLatencyMs: search,
    linearScanBaselineMs: scan,
    ratios: { p50VsScan: round(search.p50 / scan.p50, 4), p99VsScan: round(search.p99 / scan.p99, 4) },
  };
}

/** Built and encoded in a scope of its own, so the built index is garbage before the decoded one is measured. */
function buildArtifact(catalog: CourseView[]): { artifact: Buffer; buildMs: number } {
  const started = performance.now();
  const built = SearchIndex.build(catalog);
  return { artifact: encodeIndex(built), buildMs: performance.now() - started };
}

const gcAvailable = () => typeof global.gc === 'function';
/** V8 heap plus the typed arrays' buffers (outside the heap, but the index's memory all the same). */
const memoryInUse = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;

/** Ingestion throughput of the full shipped data into DynamoDB Local, against raw batched writes of the same items. */
export async function measureIngestion(endpoint: string) {
  // Fresh tables every run: an earlier run's table would make every record "unchanged".
  const suffix = Date.now().toString(36);
  const store = createStore({ region: 'us-west-2', tableName: `tn-bench-ingest-${suffix}`, dynamoDbEndpoint: endpoint });
  await ensureTable(store.client, store.tableName);
  let items = 0;
  const started = performance.now();
  // The core sample: the full one takes ~10 minutes a pass on this machine (its per-file figures are in ADR 0018).
  for (const { source, file } of sampleFiles('core')) {
    const run = await ingestorNamed(source)!.run(store, path.join('data/sample', file));
    items += run.counts.written;
  }
  const pipelineSeconds = (performance.now() - started) / 1000;

  const raw = createStore({ region: 'us-west-2', tableName: `tn-bench-raw-${suffix}`, dynamoDbEndpoint: endpoint });
  await ensureTable(raw.client, raw.tableName);
  const blobs = Array.from({ length: items }, (_, i) => ({ PK: `RAW#${i % 5000}`, SK: `ITEM#${i}`, payload: 'x'.repeat(600) }));
  const rawStarted = performance.now();
  await putAll(raw, blobs);
  const rawSeconds = (performance.now() - rawStarted) / 1000;
  const rerunStarted = performance.now();
  for (const { source, file } of sampleFiles('core')) await ingestorNamed(source)!.run(store, path.join('data/sample', file));
  const rerunSeconds = (performance.now() - rerunStarted) / 1000;
  for (const s of [store, raw]) {
    await s.client.send(new DeleteTableCommand({ TableName: s.tableName }));
    s.doc.destroy();
  }
  return {
    items,
    itemsPerSecond: round(items / pipelineSeconds, 1),
    rawBatchWriteItemsPerSecond: round(items / rawSeconds, 1),
    unchangedRerunSeconds: round(rerunSeconds, 2),
    ratios: { pipelineVsRawWrites: round(items / pipelineSeconds / (items / rawSeconds), 2), rerunVsFirstRun: round(rerunSeconds / pipelineSeconds, 2) },
  };
}

/** A cold function's first index: the stored artifact read from the table and decoded, the real shipped catalog. */
export async function measureIndexLoad(store: Store, runs: number) {
  const version = await getCatalogVersion(store);
  await catalogIndexFor(store, version);
  const times: number[] = [];
  let courses = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    courses = (await catalogIndexFor(store, version)).size;
    times.push(performance.now() - started);
  }
  const artifact = await loadSearchIndex(store, version);
  return { courses, storedArtifactKB: artifact ? round(artifact.length / 1024, 1) : null, coldLoadFromTableMs: summarize(times) };
}
