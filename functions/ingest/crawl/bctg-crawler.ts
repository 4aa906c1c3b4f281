import { findInstitution, institutionId } from '../../catalog/institutions.js';
import { readPageMemories, writePageMemories, type PageMemories, type PageMemory } from '../../catalog/ingestion/crawl-store.js';
import { stableHash } from '../../catalog/ingestion/reconcile.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { forEachAtOnce } from '../../platform/at-once.js';
import { TRANSFER_SOURCE } from '../../transfer/ingest/transfer-ingest.js';
import { BctgSite, UnreadableAnswer, type BctgInstitution, type BctgSubject, type ListAnswer, type SearchPage } from './bctg-site.js';
import { atOrBefore, compareText, type CrawlContext, type Crawler, type CrawlStep, type UnitResult } from './crawler.js';
import { PageFailed } from './polite-client.js';

/** Sorts after every subject of a sender: the key of the sender's part-done step. */
const PART_END = '\uffff';

/** A list the crawl keeps, for a 304 to stand for. */
interface ListMemory<T> extends PageMemory {
  endpoint: string;
  data: T[];
}

class UnknownSender extends Error {}

/**
 * The BC Transfer Guide, every sending institution it lists (or the ones asked for), subject by
 * subject: a unit is one subject's agreements, every page of it, handed to the transfer ingestion as
 * one snapshot of that subject (rules it no longer lists become history). A part is a sender.
 */
export function bctgCrawler(store: Store, site: BctgSite, options: { senders?: string[]; searchOrigin: string }): Crawler {
  const wanted = options.senders?.map((s) => s.trim()).filter(Boolean);
  return {
    source: TRANSFER_SOURCE,
    crawlKey: wanted?.length ? `senders:${[...new Set(wanted.map(codeOf))].sort().join(',')}` : 'all',
    steps: (position, context) => steps(store, site, wanted, position, context, options.searchOrigin),
    institutionFreshness: (part, tally) => [
      { source: TRANSFER_SOURCE, institution: institutionId(part.replace(/^sender:/, '')), records: tally.agreements ?? 0, sent: tally.agreements ?? 0 },
    ],
  };
}

/** What `--sender` names, as the guide's code: a code (`LANG`), our slug (`langara`) or the institution's name. */
const codeOf = (input: string) => findInstitution(input)?.bctgCode ?? input.trim().toUpperCase();

export function selectSenders(listed: BctgInstitution[], wanted: string[] | undefined): BctgInstitution[] {
  const sorted = [...listed].sort((a, b) => compareText(a.code, b.code) || a.id - b.id);
  if (!wanted?.length) return sorted;
  return wanted.map((input) => {
    const code = codeOf(input);
    const found = sorted.find((i) => i.code.toUpperCase() === code) ?? sorted.find((i) => i.title.toLowerCase() === input.toLowerCase());
    if (!found) {
      const sample = sorted.slice(0, 8).map((i) => `${i.code} (${i.title})`).join(', ');
      throw new UnknownSender(`the BC Transfer Guide lists no sending institution "${input}"; it lists ${sorted.length}, e.g. ${sample}`);
    }
    return found;
  });
}

async function* steps(store: Store, site: BctgSite, wanted: string[] | undefined, position: string[], context: CrawlContext, searchOrigin: string): AsyncIterable<CrawlStep> {
  const meta = await readPageMemories(store, TRANSFER_SOURCE, 'institutions');
  const institutions = await rememberedList(meta, 'institutions', (last) => site.institutions(last), context);
  if (institutions.changed) await writePageMemories(store, TRANSFER_SOURCE, 'institutions', meta);
  if (!institutions.items.length) throw new UnreadableAnswer('the BC Transfer Guide listed no sending institutions');
  const senders = [...new Map(selectSenders(institutions.items, wanted).map((s) => [s.code.toUpperCase(), s])).values()];

  for (const sender of senders) {
    const part = `sender:${sender.code}`;
    if (atOrBefore([sender.code, PART_END], position)) continue;
    const group = `sender#${sender.code}`;
    const memories = await readPageMemories(store, TRANSFER_SOURCE, group);
    let subjects: BctgSubject[];
    try {
      const answer = await rememberedList(memories, 'subjects', (last) => site.subjects(sender.id, last), context);
      if (answer.changed) await writePageMemories(store, TRANSFER_SOURCE, group, memories);
      subjects = [...answer.items].sort((a, b) => compareText(a.code, b.code) || a.id - b.id);
    } catch (error) {
      // The sender's subjects could not be read: the sender fails as one unit, and the crawl moves on.
      yield { kind: 'unit', key: [sender.code, PART_END], part, label: `${sender.code} subjects`, run: () => Promise.reject(error) };
      continue;
    }
    for (const subject of subjects) {
      const key = [sender.code, subject.code, String(subject.id).padStart(10, '0')];
      if (atOrBefore(key, position)) continue;
      yield { kind: 'unit', key, part, label: `${sender.code} ${subject.code}`, run: () => crawlSubject(store, site, sender, subject, memories, group, context, searchOrigin) };
    }
    yield { kind: 'part-done', key: [sender.code, PART_END], part };
  }
}

/** A list read with the validators of its last answer; a 304 stands for the list kept then. */
async function rememberedList<T>(
  memories: PageMemories,
  key: string,
  fetch: (last?: { endpoint: string; validators: { etag?: string; lastModified?: string } }) => Promise<ListAnswer<T>>,
  context: CrawlContext,
): Promise<{ items: T[]; changed: boolean }> {
  const last = memories[key] as ListMemory<T> | undefined;
  let answer: ListAnswer<T>;
  try {
    answer = await fetch(last?.data ? { endpoint: last.endpoint, validators: { etag: last.etag, lastModified: last.lastModified } } : undefined);
  } catch (error) {
    context.page('failed');
    throw error;
  }
  if (answer.response.notModified && last) {
    context.page('unchanged');
    return { items: last.data, changed: false };
  }
  const hash = stableHash(answer.items);
  const same = last?.hash === hash && last.endpoint === answer.endpoint && last.etag === answer.response.etag && last.lastModified === answer.response.lastModified;
  context.page(last?.hash === hash ? 'unchanged' : 'fetched');
  if (!same) {
    const kept: ListMemory<T> = { hash, endpoint: answer.endpoint, etag: answer.response.etag, lastModified: answer.response.lastModified, data: answer.items };
    memories[key] = kept;
  }
  return { items: answer.items, changed: !same };
}

/**
 * Every page of one subject (page 1 says how many), two at a time at most; unchanged when each page
 * hashes as it did, otherwise the subject's agreements go to the transfer ingestion as one snapshot.
 */
async function crawlSubject(
  store: Store,
  site: BctgSite,
  sender: BctgInstitution,
  subject: BctgSubject,
  memories: PageMemories,
  group: string,
  context: CrawlContext,
  searchOrigin: string,
): Promise<UnitResult> {
  const key = `subject:${subject.code}#${subject.id}`;
  const before = memories[key];
  const beforeHashes = Array.isArray(before?.data) ? (before.data as string[]) : [];
  const pages: SearchPage[] = [];
  const hashes: string[] = [];
  // Once a page has failed the subject is lost for this crawl: the other worker asks for no more pages.
  let failed = false;
  const fetchPage = async (pageNumber: number) => {
    if (failed) return;
    let page: SearchPage;
    try {
      page = await site.searchPage(sender, subject, pageNumber);
    } catch (error) {
      failed = true;
      if (!(error instanceof PageFailed) || error.reason === 'gave-up') context.page('failed');
      throw error;
    }
    const hash = stableHash(page.agreements);
    pages[pageNumber - 1] = page;
    hashes[pageNumber - 1] = hash;
    context.page(beforeHashes[pageNumber - 1] === hash ? 'unchanged' : 'fetched');
  };
  await fetchPage(1);
  const total = pages[0]!.totalPages;
  await forEachAtOnce(
    Array.from({ length: Math.max(0, total - 1) }, (_, i) => i + 2),
    2,
    (pageNumber) => (context.checkContinue(), fetchPage(pageNumber)),
  );
  const agreements = pages.flatMap((page) => page.agreements.map((agreement) => ({ SndrInstitutionID: sender.id, SndrInstitutionCode: sender.code, ...agreement })));
  const tally = { agreements: agreements.length };
  const combined = stableHash(hashes);
  if (before?.hash === combined) return { changed: false, tally };
  if (agreements.length) {
    await context.ingest(TRANSFER_SOURCE, JSON.stringify(agreements), `${searchOrigin}/wp-json/bctg-search/course-to-course/search-from#${sender.code}/${subject.code}`);
  }
  memories[key] = { hash: combined, data: hashes };
  await writePageMemories(store, TRANSFER_SOURCE, group, memories);
  return { changed: true, tally };
}
