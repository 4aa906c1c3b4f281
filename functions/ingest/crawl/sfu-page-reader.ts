import type { PageMemories } from '../../catalog/ingestion/crawl-store.js';
import { stableHash } from '../../catalog/ingestion/reconcile.js';
import type { CrawlContext } from './crawler.js';
import { PageFailed } from './polite-client.js';
import { readList, readOutline, type CompactOutline, type ListEntry, type SfuOutlinesApi } from './sfu-outlines-api.js';

/**
 * Reads pages with the validators of their last answer: a 304 stands for what was kept then (a page
 * whose content was not kept is asked again without validators). Notes whether anything differs from
 * what was kept, and which pages it read, so pages no longer listed can be forgotten.
 */
export class PageReader {
  /** A page's content differs from what was kept (or was never kept, or is gone). */
  changed = false;
  /** Only validators changed (the same content under a new ETag): worth keeping, not worth ingesting. */
  validatorsMoved = false;
  readonly seen = new Set<string>();

  constructor(
    private readonly api: SfuOutlinesApi,
    private readonly memories: PageMemories,
    private readonly context: CrawlContext,
  ) {}

  async list(key: string, segments: string[]): Promise<ListEntry[] | 'missing'> {
    return this.read(key, segments, (text, url) => readList(text, url));
  }

  async outline(key: string, segments: string[]): Promise<CompactOutline | 'missing'> {
    return this.read(key, segments, (text, url) => readOutline(text, url));
  }

  /** Pages kept from last time that this crawl no longer reached: their records are gone upstream. */
  forgetUnseen(): void {
    for (const key of Object.keys(this.memories)) {
      if (this.seen.has(key)) continue;
      delete this.memories[key];
      this.changed = true;
    }
  }

  private async read<T>(key: string, segments: string[], parse: (text: string, url: string) => T): Promise<T | 'missing'> {
    this.seen.add(key);
    const kept = this.memories[key];
    const url = this.api.url(segments);
    try {
      let answer = await this.api.get(segments, kept?.data !== undefined ? { etag: kept.etag, lastModified: kept.lastModified } : undefined);
      if (answer.kind === 'not-modified') {
        if (kept?.data !== undefined) {
          this.context.page('unchanged');
          return kept.data as T;
        }
        answer = await this.api.get(segments);
      }
      if (answer.kind === 'missing') {
        this.context.page('missing');
        if (kept) {
          delete this.memories[key];
          this.changed = true;
        }
        return 'missing';
      }
      if (answer.kind !== 'found') throw new PageFailed(url, `${url} answered 304 to a request without validators`, 'gave-up');
      const value = parse(answer.response.text, url);
      const hash = stableHash(value);
      this.context.page(kept?.hash === hash ? 'unchanged' : 'fetched');
      if (kept?.hash !== hash || kept.etag !== answer.response.etag || kept.lastModified !== answer.response.lastModified) {
        this.memories[key] = { hash, data: value, ...(answer.response.etag ? { etag: answer.response.etag } : {}), ...(answer.response.lastModified ? { lastModified: answer.response.lastModified } : {}) };
        this.changed ||= kept?.hash !== hash;
        this.validatorsMoved ||= kept?.hash === hash;
      }
      return value;
    } catch (error) {
      if (!(error instanceof PageFailed) || error.reason === 'gave-up') this.context.page('failed');
      throw error;
    }
  }
}

