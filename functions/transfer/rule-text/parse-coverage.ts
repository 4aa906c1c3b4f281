import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBctgFile, type BctgFormat } from '../ingest/bctg-adapters.js';
import { scanRules, type ScanCounts } from './rule-scan.js';

/**
 * How much of the BC Transfer Guide sample data the detail parser types completely. Used by the
 * unit tests (as a regression floor) and by the benchmark.
 */

export interface ParseCoverage {
  file: string;
  format: BctgFormat | undefined;
  /** Rows in the file. */
  rows: number;
  /** Rules after merging bundle rows listed under several courses. */
  rules: number;
  duplicatesMerged: number;
  rejected: number;
  /** Rules with every credit expression typed and no condition left as free text. */
  fullyParsed: number;
  /** fullyParsed / rules, 0..1. */
  fullyParsedShare: number;
  /** Share of rules whose credit expressions are all typed, whatever prose remains (the older, weaker measure). */
  awardsTypedShare: number;
  /** The rules that were not fully parsed, with what was left over. */
  unparsed: { sourceRecordId: string; rawDetail: string; fragments: string[]; untypedConditions: string[] }[];
}

const BCTG_SAMPLE_FILES = ['langara-transfers-2023-04.json', 'alexander-college-transfers-2025-06.json', 'langara-transfers-2023-10.json'];

const SAMPLE_DIR = fileURLToPath(new URL('../../../data/sample/bctransferguide/', import.meta.url));

export function measureParseCoverage(options: { dir?: string; files?: string[] } = {}): ParseCoverage[] {
  const dir = options.dir ?? SAMPLE_DIR;
  return (options.files ?? BCTG_SAMPLE_FILES).map((file) => {
    const result = parseBctgFile(readFileSync(join(dir, file), 'utf8'), new Date().toISOString());
    const unparsed = result.rules
      .filter((rule) => !rule.fullyParsed)
      .map((rule) => ({ sourceRecordId: rule.sourceRecordId, rawDetail: rule.rawDetail, fragments: rule.unparsedFragments, untypedConditions: rule.untypedConditions ?? [] }));
    const fullyParsed = result.rules.length - unparsed.length;
    const awardsTyped = result.rules.filter((rule) => rule.unparsedFragments.length === 0 && rule.targets.every((t) => t.kind !== 'unparsed')).length;
    return {
      file,
      format: result.format,
      rows: result.rows,
      rules: result.rules.length,
      duplicatesMerged: result.duplicatesMerged,
      rejected: result.rejected.length,
      fullyParsed,
      fullyParsedShare: result.rules.length ? fullyParsed / result.rules.length : 0,
      awardsTypedShare: result.rules.length ? awardsTyped / result.rules.length : 0,
      unparsed,
    };
  });
}

const LANGARA_CATALOGUE = fileURLToPath(new URL('../../../data/sample/langara/catalogue.json', import.meta.url));

/** Credits per course of the shipped Langara catalogue (what PDF-format Langara rows leave out). */
export function shippedCatalogueCredits(): (institution: string, code: string) => number | undefined {
  const courses = (JSON.parse(readFileSync(LANGARA_CATALOGUE, 'utf8')) as { courses: { subject: string; course_code: number; credits: number }[] }).courses;
  const credits = new Map(courses.filter((c) => c.credits > 0).map((c) => [`${c.subject} ${c.course_code}`, c.credits]));
  return (institution, code) => (institution === 'langara' ? credits.get(code) : undefined);
}

export interface SuspiciousShapes {
  dir: string;
  file: string;
  counts: ScanCounts;
  examples: Record<string, string[]>;
}

/** The suspicious-shape scan (rule-scan.ts) over every rule of each BC Transfer Guide file in a directory. */
export function measureSuspiciousShapes(options: { dir?: string; files?: string[] } = {}): SuspiciousShapes[] {
  const dir = options.dir ?? SAMPLE_DIR;
  const catalogue = shippedCatalogueCredits();
  return (options.files ?? BCTG_SAMPLE_FILES).map((file) => {
    const { rules } = parseBctgFile(readFileSync(join(dir, file), 'utf8'), new Date().toISOString());
    return { dir, file, ...scanRules(rules, catalogue) };
  });
}
