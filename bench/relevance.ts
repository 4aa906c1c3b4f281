import { readFile } from 'node:fs/promises';
import type { SearchFilters, SearchHit, SearchIndex } from '../functions/catalog/search/search-index.js';
import { TypedRanking } from '../functions/catalog/search/typed-ranking.js';
import { round, summarize } from './stats.js';

/** One judged query (bench/relevance/judged-queries.json). */
export interface JudgedQuery {
  query: string;
  institution?: string;
  /** What the student most likely means. */
  relevant: string[];
  /** On the topic without being the likely target: a ref, "institution:SUBJECT", or a SUBJECT anywhere. */
  related: string[];
  /** Named off-topic (any top-3 hit neither relevant nor related is off-topic too). */
  offTopic: string[];
  /** In the second set: looked at while the ranking was changed (dev), or never (heldOut). */
  split?: 'dev' | 'heldOut';
}

/** The judged sets the benchmark reports: the first judge's queries, and the second judge's, split into the part looked at and the part held out. */
export interface JudgedSets {
  judged: JudgedQuery[];
  secondDev: JudgedQuery[];
  secondHeldOut: JudgedQuery[];
}

export type Ranking = (query: string, filters: SearchFilters) => SearchHit[];

export interface QueryOutcome {
  query: string;
  institution?: string;
  /** 1-based rank of the first relevant course in the top 10, null when none is. */
  firstRelevant: number | null;
  offTopicInTop3: string[];
  top3: string[];
}

export interface RelevanceReport {
  queries: number;
  institutions: string[];
  /** Share of queries with a relevant course in the top 3. */
  successAt3: number;
  /** Mean reciprocal rank of the first relevant course within the top 10. */
  mrrAt10: number;
  /** Queries with a course off the topic in the top 3. */
  offTopicInTop3: number;
  misses: QueryOutcome[];
}

export async function judgedQueries(path = 'bench/relevance/judged-queries.json'): Promise<JudgedQuery[]> {
  return (JSON.parse(await readFile(path, 'utf8')) as { queries: JudgedQuery[] }).queries;
}

export async function judgedSets(): Promise<JudgedSets> {
  const second = await judgedQueries('bench/relevance/second-judgments.json');
  return { judged: await judgedQueries(), secondDev: second.filter((q) => q.split === 'dev'), secondHeldOut: second.filter((q) => q.split === 'heldOut') };
}

export function outcomeOf(judged: JudgedQuery, hits: SearchHit[]): QueryOutcome {
  const top = hits.slice(0, 10).map((hit) => hit.course);
  const relevant = new Set(judged.relevant);
  const index = top.findIndex((course) => relevant.has(course.ref));
  const onTopic = (course: { ref: string; institution: string; subject: string }) =>
    relevant.has(course.ref) || judged.related.some((entry) => entry === course.ref || entry === `${course.institution}:${course.subject}` || entry === course.subject);
  const offTopic = top.slice(0, 3).filter((course) => judged.offTopic.includes(course.ref) || !onTopic(course));
  return {
    query: judged.query,
    ...(judged.institution ? { institution: judged.institution } : {}),
    firstRelevant: index < 0 ? null : index + 1,
    offTopicInTop3: offTopic.map((course) => course.ref),
    top3: top.slice(0, 3).map((course) => course.ref),
  };
}

/** success@3, MRR@10 and off-topic-in-top-3 of a ranking over the judged queries. */
export function evaluate(judged: JudgedQuery[], rank: Ranking): RelevanceReport {
  const outcomes = judged.map((j) => outcomeOf(j, rank(j.query, j.institution ? { institution: j.institution } : {})));
  return {
    queries: outcomes.length,
    institutions: [...new Set(judged.flatMap((j) => j.relevant.map((ref) => ref.split(':')[0]!)))].sort(),
    successAt3: round(outcomes.filter((o) => o.firstRelevant !== null && o.firstRelevant <= 3).length / outcomes.length, 3),
    mrrAt10: round(outcomes.reduce((sum, o) => sum + (o.firstRelevant ? 1 / o.firstRelevant : 0), 0) / outcomes.length, 3),
    offTopicInTop3: outcomes.filter((o) => o.offTopicInTop3.length).length,
    misses: outcomes.filter((o) => o.firstRelevant === null || o.firstRelevant > 3 || o.offTopicInTop3.length),
  };
}

/**
 * Relevance of the student-aware ranking against the ranking as typed, on the same index, per judged
 * set. A held-out set reports its figures only, so reading the results never tunes the ranking to it.
 */
export function measureRelevance(index: SearchIndex, sets: JudgedSets) {
  const all = [...sets.judged, ...sets.secondDev, ...sets.secondHeldOut];
  const typed = new TypedRanking(index);
  const measure = (judged: JudgedQuery[], heldOut: boolean) => {
    const ranking = evaluate(judged, (query, filters) => index.query(query, filters));
    const asTyped = evaluate(judged, (query, filters) => typed.query(query, filters));
    return {
      ranking: { ...ranking, misses: heldOut ? ranking.misses.length : ranking.misses.map(brief) },
      baselineAsTyped: { ...asTyped, misses: asTyped.misses.length },
    };
  };
  return {
    judgedQueries: all.length,
    institutions: evaluate(all, () => []).institutions,
    judged: measure(sets.judged, false),
    secondDev: measure(sets.secondDev, false),
    secondHeldOut: measure(sets.secondHeldOut, true),
  };
}

function brief(outcome: QueryOutcome): string {
  const where = outcome.institution ? ` @${outcome.institution}` : '';
  const rank = outcome.firstRelevant === null ? 'no relevant in top 10' : `first relevant #${outcome.firstRelevant}`;
  const off = outcome.offTopicInTop3.length ? `; off-topic in top 3: ${outcome.offTopicInTop3.join(', ')}` : '';
  return `"${outcome.query}"${where}: ${rank}${off}`;
}

/** Latency of two rankings over the same queries, interleaved so neither gets a warmer machine. */
export function compareSpeed(queries: { text: string; filters: SearchFilters }[], rankings: Record<'ranking' | 'asTyped', Ranking>) {
  for (const { text, filters } of queries.slice(0, 20)) {
    rankings.ranking(text, filters);
    rankings.asTyped(text, filters);
  }
  const samples = { ranking: [] as number[], asTyped: [] as number[] };
  for (const { text, filters } of queries) {
    for (const name of ['ranking', 'asTyped'] as const) {
      const started = performance.now();
      rankings[name](text, filters);
      samples[name].push(performance.now() - started);
    }
  }
  const ranking = summarize(samples.ranking);
  const asTyped = summarize(samples.asTyped);
  return { rankingMs: ranking, asTypedMs: asTyped, ratios: { p50: round(ranking.p50 / asTyped.p50, 2), p99: round(ranking.p99 / asTyped.p99, 2) } };
}
