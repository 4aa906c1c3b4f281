import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalKey } from '../../functions/course/prerequisites/agreement.js';
import { parsePrerequisites } from '../../functions/course/prerequisites/parser.js';
import { kualiText, kualiTree } from '../../functions/ingest/adapters/uvic.js';

/*
 * The text parser against UVic's own requisite trees, on every shipped UVic course whose rules come
 * both as a tree and as text (the rule text as kualiText renders it from the HTML): the share the
 * parser reads fully, and the share whose tree agrees with UVic's (canonicalKey: course codes, grades
 * and AND/OR shape, conditions as one placeholder). UVic's tree is what the catalog serves; this
 * measures the parser on prose it was not written for. Measured when this test was written: 2,210
 * texts, fully parsed 1,195 (0.541), agreeing 1,035 (0.468); 1,187 and 1,027 before hyphenated
 * subjects (ED-D 405) were read as codes. The floors sit a little below.
 */
const FLOORS = { fullyParsed: 0.53, agreement: 0.45 };

interface UvicEntry {
  courseId: string;
  parsedRequirements?: unknown;
  htmlRequirements?: string;
}

function pairs() {
  const entries = Object.values(JSON.parse(readFileSync('data/sample/uvic-catalog-2024/courses-prereqs.json', 'utf8')) as Record<string, UvicEntry>);
  return entries.flatMap((entry) => {
    const text = kualiText(entry.htmlRequirements);
    if (!text || !Array.isArray(entry.parsedRequirements) || entry.parsedRequirements.length === 0) return [];
    try {
      return [{ course: entry.courseId, text, tree: kualiTree(entry.parsedRequirements) }];
    } catch {
      return []; // a rule the adapter quarantines has no tree to compare with
    }
  });
}

describe("the prerequisite parser on UVic's rule text", () => {
  it("reads most of it fully and agrees with UVic's own trees above the measured floor", () => {
    const rows = pairs();
    let fullyParsed = 0;
    let agree = 0;
    for (const row of rows) {
      const parsed = parsePrerequisites(row.text, { institution: 'uvic' });
      if (parsed.fullyParsed) fullyParsed++;
      if (canonicalKey(parsed.tree) === canonicalKey(row.tree)) agree++;
    }
    const share = (n: number) => Math.round((n / rows.length) * 1000) / 1000;
    console.log(`UVic rule text: ${rows.length} texts, fully parsed ${fullyParsed} (${share(fullyParsed)}), agreeing with UVic's trees ${agree} (${share(agree)})`);
    expect(rows.length).toBeGreaterThan(2_000);
    expect(share(fullyParsed)).toBeGreaterThanOrEqual(FLOORS.fullyParsed);
    expect(share(agree)).toBeGreaterThanOrEqual(FLOORS.agreement);
  });

  it('reads a hyphenated subject in UVic text as the course UVic names', () => {
    const row = pairs().find((pair) => pair.course === 'ED-D402')!;
    expect(canonicalKey(parsePrerequisites(row.text, { institution: 'uvic' }).tree)).toBe(canonicalKey(row.tree));
  });
});
