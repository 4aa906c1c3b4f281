import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { selectSenders } from '../../functions/ingest/crawl/bctg-crawler.js';
import { nonceIn, readSearchPage, UnreadableAnswer } from '../../functions/ingest/crawl/bctg-site.js';
import { crawlOrigins } from '../../functions/ingest/crawl/crawlers.js';
import { atOrBefore, keyBefore } from '../../functions/ingest/crawl/crawler.js';
import { field, numberField, withCanonicalKeys } from '../../functions/ingest/crawl/json-keys.js';
import { isoDate, readList, readOutline } from '../../functions/ingest/crawl/sfu-outlines-api.js';
import { currentSfuTerm, sfuTerm } from '../../functions/ingest/crawl/sfu-outlines-crawler.js';
import { parseBctgApiRecords } from '../../functions/transfer/ingest/bctg-adapters.js';

const SAMPLE = readFileSync('data/sample/bctransferguide/bctg-search-from-response-sample.json', 'utf8');

/** Every key of every object, camelCased (`SndrSubjectCode` → `sndrSubjectCode`), as the newer service may answer. */
function camelCased(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCased);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.charAt(0).toLowerCase() + k.slice(1), camelCased(v)]));
}

describe('BC Transfer Guide protocol', () => {
  it('finds the search nonce in the home page, the search page, WordPress settings or a link, whatever the attribute order', () => {
    expect(nonceIn('<div class="x" id="c2c-home-filters" data-a="1" nonce="911a679700"></div>')).toBe('911a679700');
    expect(nonceIn("<div nonce='2acb3bba88' id='c2c-search-filters'>")).toBe('2acb3bba88');
    expect(nonceIn('<script>var wpApiSettings = {"root":"https:\\/\\/www.bctransferguide.ca\\/wp-json\\/","nonce":"29c6569502"};</script>')).toBe('29c6569502');
    expect(nonceIn('<a href="/wp-json/x?_wpnonce=abc1234567">')).toBe('abc1234567');
    expect(nonceIn('<div id="c2c-home-filters"></div>')).toBeUndefined();
  });

  it('reads the captured search-from page: a string currentPage, agreements with their course fields, as the adapter reads them', () => {
    const page = readSearchPage(SAMPLE, 1);
    expect(page.totalPages).toBe(13);
    expect(page.agreements).toHaveLength(1);
    const rules = parseBctgApiRecords(JSON.stringify(page.agreements), '2026-01-01T00:00:00.000Z');
    expect(rules.rejected).toEqual([]);
    expect(rules.rules[0]).toMatchObject({ senderInstitution: 'langara', receiverInstitution: 'capilano', effectiveStart: '2003-05-01', effectiveEnd: null });
  });

  it('reads the same page with camelCase keys to the same rules', () => {
    const pascal = readSearchPage(SAMPLE, 1);
    const camel = readSearchPage(JSON.stringify(camelCased(JSON.parse(SAMPLE))), 1);
    expect(camel.totalPages).toBe(pascal.totalPages);
    const at = '2026-01-01T00:00:00.000Z';
    expect(parseBctgApiRecords(JSON.stringify(camel.agreements), at).rules).toEqual(parseBctgApiRecords(JSON.stringify(pascal.agreements), at).rules);
  });

  it('calls anything but a search answer unreadable: an HTML page, an error object, a runaway page count', () => {
    expect(() => readSearchPage('<html>maintenance</html>', 1)).toThrow(UnreadableAnswer);
    expect(() => readSearchPage('{"code":"rest_cookie_invalid_nonce","message":"Cookie check failed"}', 2)).toThrow(/error rest_cookie_invalid_nonce/);
    expect(() => readSearchPage('{"courses":[],"totalPages":100000}', 1)).toThrow(UnreadableAnswer);
    expect(readSearchPage('{"courses":[],"totalPages":"0","currentPage":"1"}', 1)).toEqual({ pageNumber: 1, totalPages: 0, agreements: [] });
    // No results as a null list; a page count from the totals when totalPages is absent.
    expect(readSearchPage('{"courses":null,"totalPages":0}', 1)).toEqual({ pageNumber: 1, totalPages: 0, agreements: [] });
    expect(readSearchPage('{"courses":[],"totalAgreements":41,"pageLength":20}', 3).totalPages).toBe(3);
  });

  it('picks senders by code, our slug or the name the guide lists, and names some it lists when one is unknown', () => {
    const listed = [
      { id: 15, code: 'LANG', title: 'Langara College' },
      { id: 10020, code: 'ALEX', title: 'Alexander College' },
      { id: 24, code: 'SFU', title: 'Simon Fraser University' },
    ];
    expect(selectSenders(listed, undefined).map((s) => s.code)).toEqual(['ALEX', 'LANG', 'SFU']);
    expect(selectSenders(listed, ['langara', 'alex', 'Simon Fraser University']).map((s) => s.code)).toEqual(['LANG', 'ALEX', 'SFU']);
    expect(() => selectSenders(listed, ['DOUG'])).toThrow(/lists no sending institution "DOUG"; it lists 3, e.g. ALEX \(Alexander College\)/);
  });
});

describe('SFU Course Outlines protocol', () => {
  it('reads list levels (value for the next URL, text as SFU writes it, a title or name when given)', () => {
    expect(readList('[{"text":"CMPT","value":"cmpt","name":"Computing Science"},{"text":"RISK","value":"risk"}]', 'u')).toEqual([
      { value: 'cmpt', text: 'CMPT', title: 'Computing Science' },
      { value: 'risk', text: 'RISK' },
    ]);
    expect(() => readList('{"errorMessage":"x"}', 'u')).toThrow(/did not answer a JSON list/);
  });

  it('reads an outline: course fields from info, instructors by name, meetings with calendar dates', () => {
    const outline = readOutline(
      JSON.stringify({
        info: { dept: 'BUS', number: '312', section: 'D100', units: '3', term: 'Fall 2026', designation: 'Quantitative' },
        instructor: [{ firstName: 'Ada', lastName: 'Lovelace', commonName: 'Ada' }, { name: 'Grace Hopper' }],
        courseSchedule: [{ startDate: 'Wed Sep 09 00:00:00 PDT 2026', endDate: 'Mon Dec 07 00:00:00 PST 2026', days: 'Mo, We', startTime: '8:30', endTime: '9:20', sectionCode: 'LEC', isExam: false }],
      }),
      'u',
    );
    expect(outline).toMatchObject({ dept: 'BUS', number: '312', section: 'D100', units: '3', term: 'Fall 2026', instructors: ['Ada Lovelace', 'Grace Hopper'] });
    expect(outline.schedules[0]).toMatchObject({ startDate: '2026-09-09', endDate: '2026-12-07', days: 'Mo, We', startTime: '8:30' });
    expect(() => readOutline('[]', 'u')).toThrow(/not an outline/);
  });

  it('turns Java dates into the calendar date they print, never moved by a time zone', () => {
    expect(isoDate('Wed Sep 09 00:00:00 PDT 2026')).toBe('2026-09-09');
    expect(isoDate('Thu Jan 01 23:59:59 PST 2026')).toBe('2026-01-01');
    expect(isoDate('2026-05-04')).toBe('2026-05-04');
    expect(isoDate('next week')).toBeUndefined();
  });

  it('reads terms as SFU names them and knows which one a date falls in', () => {
    expect(sfuTerm('2026/fall')).toBe('2026-fall');
    expect(sfuTerm('Spring 2027')).toBe('2027-spring');
    expect(sfuTerm('2024W')).toBeUndefined();
    expect(currentSfuTerm(new Date('2026-04-30T12:00:00Z'))).toBe('2026-spring');
    expect(currentSfuTerm(new Date('2026-05-01T12:00:00Z'))).toBe('2026-summer');
    expect(currentSfuTerm(new Date('2026-12-31T12:00:00Z'))).toBe('2026-fall');
  });
});

describe('crawl plumbing', () => {
  it('orders unit keys element by element, so a resumed crawl skips exactly what it finished', () => {
    expect(keyBefore(['ALEX', 'CPSC'], ['LANG'])).toBe(true);
    expect(keyBefore(['LANG'], ['LANG', 'ABST'])).toBe(true);
    expect(keyBefore(['LANG', '\uffff'], ['LANG', 'ZOOL'])).toBe(false);
    expect(atOrBefore(['LANG', 'ABST'], ['LANG', 'ABST'])).toBe(true);
    expect(atOrBefore(['LANG', 'CPSC'], ['LANG', 'ABST'])).toBe(false);
    expect(atOrBefore(['ALEX'], [])).toBe(false);
  });

  it('reads JSON keys whatever their case, an exact key first', () => {
    expect(field({ TotalPages: 3 }, 'totalPages')).toBe(3);
    expect(numberField({ currentPage: '2' }, 'CurrentPage')).toBe(2);
    expect(withCanonicalKeys({ detail: 'x', Detail: 'y', extra: 1 }, ['Detail'])).toEqual({ Detail: 'y', extra: 1 });
  });

  it('takes each origin from its variable, defaulting to the real site, and refuses anything but an origin', () => {
    expect(crawlOrigins({})).toEqual({
      bctg: { www: 'https://www.bctransferguide.ca', ws: 'https://ws.bctransferguide.ca', api: 'https://api.bctransferguide.ca' },
      sfuOutlines: 'https://www.sfu.ca',
    });
    expect(crawlOrigins({ TN_BCTG_ORIGIN: 'http://127.0.0.1:4321/', TN_SFU_OUTLINES_ORIGIN: 'http://127.0.0.1:4322' })).toMatchObject({
      bctg: { www: 'http://127.0.0.1:4321' },
      sfuOutlines: 'http://127.0.0.1:4322',
    });
    expect(() => crawlOrigins({ TN_BCTG_API_ORIGIN: 'ftp://x' })).toThrow(/TN_BCTG_API_ORIGIN must be an http\(s\) origin/);
    expect(() => crawlOrigins({ TN_SFU_OUTLINES_ORIGIN: 'https://www.sfu.ca/bin/wcm' })).toThrow(/no path/);
  });
});
