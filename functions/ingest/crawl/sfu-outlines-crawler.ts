import { forEachAtOnce } from '../../platform/at-once.js';
import { catalogKeys } from '../../platform/store/keys.js';
import type { CatalogRecord } from '../../catalog/catalog-model.js';
import { parseTerm, termLabel, termOrder, trimesterAt } from '../../catalog/terms.js';
import { readPageMemories, writePageMemories } from '../../catalog/ingestion/crawl-store.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { atOrBefore, compareText, type CrawlContext, type Crawler, type CrawlStep, type UnitResult } from './crawler.js';
import { PageFailed } from './polite-client.js';
import { outlineFile, sectionsFile, type CourseOutlines, type Term } from './sfu-outline-files.js';
import type { ListEntry, SfuOutlinesApi } from './sfu-outlines-api.js';
import { PageReader } from './sfu-page-reader.js';

export const SFU_CRAWL_SOURCE = 'sfu-outlines';
const PART_END = '\uffff';
const SEASON_VALUES = ['spring', 'summer', 'fall'] as const;

class UnknownTerm extends Error {}

/** `2026/fall`, `2026-fall` or `Fall 2026` as the canonical term; undefined when it is none of SFU's. */
export function sfuTerm(input: string): string | undefined {
  const term = parseTerm(input.replace(/\//g, '-'));
  return term && (SEASON_VALUES as readonly string[]).includes(term.split('-')[1]!) ? term : undefined;
}

/** The term a date falls in at SFU (spring Jan–Apr, summer May–Aug, fall Sep–Dec). */
export const currentSfuTerm = trimesterAt;

/**
 * SFU's course outlines over the API's hierarchy, years → terms → departments → courses → sections →
 * outline, for the terms asked for (by default the current term and every later one the API lists). A
 * unit is one department of one term; its outlines become the `sfu-outlines` fragments and offerings
 * and the `sfu-sections` sections, and a run speaks only for that department and term. A part is a term.
 */
export function sfuOutlinesCrawler(store: Store, api: SfuOutlinesApi, options: { terms?: string[]; now?: () => Date }): Crawler {
  const terms = options.terms?.length ? [...new Set(options.terms)].sort((a, b) => termOrder(a) - termOrder(b)) : undefined;
  return {
    source: SFU_CRAWL_SOURCE,
    crawlKey: terms ? `terms:${terms.join(',')}` : 'current-and-later',
    steps: (position, context) => steps(store, api, terms, options.now ?? (() => new Date()), position, context),
    institutionFreshness: (_part, tally) => [
      { source: 'sfu-outlines', institution: 'sfu', records: tally.courses ?? 0 },
      { source: 'sfu-sections', institution: 'sfu', records: tally.sections ?? 0 },
    ],
  };
}

/** A term's place in crawl order (chronological), as a key element. */
const termKey = (term: string) => String(termOrder(term));

async function* steps(store: Store, api: SfuOutlinesApi, wanted: string[] | undefined, now: () => Date, position: string[], context: CrawlContext): AsyncIterable<CrawlStep> {
  const hierarchy = await readPageMemories(store, SFU_CRAWL_SOURCE, 'hierarchy');
  const pages = new PageReader(api, hierarchy, context);
  const years = await pages.list('years', []);
  if (years === 'missing') throw new PageFailed(api.url([]), `${api.url([])} answered 404`, 'gave-up');
  const current = currentSfuTerm(now());
  const wantedYears = new Set(wanted?.map((term) => term.split('-')[0]!));
  const chosen: { term: string; year: string; value: string }[] = [];
  for (const year of [...years].sort((a, b) => compareText(a.value, b.value))) {
    if (!/^\d{4}$/.test(year.value)) continue;
    if (wanted ? !wantedYears.has(year.value) : Number(year.value) < Number(current.split('-')[0])) continue;
    const terms = await pages.list(`terms:${year.value}`, [year.value]);
    if (terms === 'missing') continue;
    for (const entry of terms) {
      const term = sfuTerm(`${year.value}-${entry.value}`);
      if (!term) continue;
      if (wanted ? wanted.includes(term) : termOrder(term) >= termOrder(current)) chosen.push({ term, year: year.value, value: entry.value });
    }
  }
  if (pages.changed || pages.validatorsMoved) await writePageMemories(store, SFU_CRAWL_SOURCE, 'hierarchy', hierarchy);
  const missing = wanted?.filter((term) => !chosen.some((c) => c.term === term)) ?? [];
  if (missing.length) throw new UnknownTerm(`SFU's course outlines list no ${missing.map((t) => termLabel(t)).join(', ')}; they list years ${years.map((y) => y.value).join(', ')}`);
  chosen.sort((a, b) => termOrder(a.term) - termOrder(b.term));

  for (const { term, year, value } of chosen) {
    const part = `term:${term}`;
    if (atOrBefore([termKey(term), PART_END], position)) continue;
    const group = `term#${term}`;
    const memories = await readPageMemories(store, SFU_CRAWL_SOURCE, group);
    const reader = new PageReader(api, memories, context);
    let departments: ListEntry[];
    try {
      const listed = await reader.list('departments', [year, value]);
      departments = listed === 'missing' ? [] : [...listed].sort((a, b) => compareText(a.value.toLowerCase(), b.value.toLowerCase()));
      if (reader.changed || reader.validatorsMoved) await writePageMemories(store, SFU_CRAWL_SOURCE, group, memories);
    } catch (error) {
      yield { kind: 'unit', key: [termKey(term), PART_END], part, label: `${termLabel(term)} departments`, run: () => Promise.reject(error) };
      continue;
    }
    for (const department of departments) {
      const key = [termKey(term), department.value.toLowerCase()];
      if (atOrBefore(key, position)) continue;
      yield { kind: 'unit', key, part, label: `${termLabel(term)} ${department.text}`, run: () => crawlDepartment(store, api, { term, year, value }, department, context) };
    }
    yield { kind: 'part-done', key: [termKey(term), PART_END], part };
  }
}

/**
 * One department of one term: its course list, each course's section list (a 404 skips the course, as
 * SFU lists directed studies it has no sections for), each section's outline. Unchanged when every page
 * is as kept; otherwise the department's records go to the two SFU sources, speaking for this
 * department and term only.
 */
async function crawlDepartment(store: Store, api: SfuOutlinesApi, term: Term, department: ListEntry, context: CrawlContext): Promise<UnitResult> {
  const dept = department.value.toLowerCase();
  const group = `term#${term.term}#${dept}`;
  const memories = await readPageMemories(store, SFU_CRAWL_SOURCE, group);
  const reader = new PageReader(api, memories, context);
  const base = [term.year, term.value, department.value];
  const courses = await reader.list('courses', base);
  const found: CourseOutlines[] = [];
  if (courses !== 'missing') {
    const listed = [...courses].sort((a, b) => compareText(a.value, b.value));
    // Two courses at a time keep the site's two slots busy; the client holds every request to the limit.
    // Once a page has failed the department is lost for this crawl: the other worker asks for no more pages.
    let failed = false;
    await forEachAtOnce(listed, 2, async (course) => {
      if (failed) return;
      try {
        context.checkContinue();
        const sections = await reader.list(`sections:${course.value}`, [...base, course.value]);
        if (sections === 'missing') return;
        const outlines: CourseOutlines['outlines'] = [];
        for (const section of sections) {
          if (failed) return;
          const outline = await reader.outline(`outline:${course.value}/${section.value}`, [...base, course.value, section.value]);
          if (outline !== 'missing') outlines.push({ section, outline });
        }
        if (outlines.length) found.push({ course, outlines });
      } catch (error) {
        failed = true;
        throw error;
      }
    });
  }
  reader.forgetUnseen();
  found.sort((a, b) => compareText(a.course.value, b.course.value));
  const tally = { courses: found.length, sections: found.reduce((sum, c) => sum + c.outlines.length, 0) };
  if (!reader.changed) {
    if (reader.validatorsMoved) await writePageMemories(store, SFU_CRAWL_SOURCE, group, memories);
    return { changed: false, tally };
  }
  const subject = (found[0]?.outlines[0]?.outline.dept ?? department.text).toUpperCase();
  const speaksFor = (kind: CatalogRecord['kind']) => (existing: Record<string, unknown>) => {
    const record = existing.record as CatalogRecord | undefined;
    return record?.kind === kind && 'term' in record && record.term === term.term && record.code.split(' ')[0] === subject;
  };
  // Only the department's courses can hold what it speaks for: the items of other courses are not read.
  const coverageOfItems = (key: { PK: string }) => catalogKeys.courseOfPartition(key.PK)?.code.split(' ')[0] === subject;
  const origin = api.url(base);
  await context.ingest('sfu-outlines', JSON.stringify(found.map((c) => outlineFile(c, term, department))), origin, { coverage: speaksFor('offering'), coverageOfItems });
  await context.ingest('sfu-sections', JSON.stringify(found.map((c) => sectionsFile(c, term, department))), origin, { coverage: speaksFor('section'), coverageOfItems });
  await writePageMemories(store, SFU_CRAWL_SOURCE, group, memories);
  return { changed: true, tally };
}

