import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { canonicalKey, measureAgreement, measureCoverage } from '../../functions/course/prerequisites/agreement.js';
import { parsePrerequisites } from '../../functions/course/prerequisites/parser.js';
import { langaraTexts, sfuTexts, ubcTexts } from '../../functions/course/prerequisites/sources.js';
import { ParseResultSchema } from '../../functions/course/prerequisites/tree.js';

/*
 * Agreement with the shipped parsed trees. The SFU trees are LLM output and the Langara trees are
 * LLM output approved by a person, so these are agreement rates, not accuracy. Measured when this
 * test was written: SFU 193/196 = 0.985, Langara 131/136 = 0.963; fully parsed: SFU 0.990,
 * UBC 0.999, Langara 0.977. Thresholds sit a few points below to catch regressions.
 */
const THRESHOLDS = { sfu: 0.95, langara: 0.93 };
const COVERAGE = { sfu: 0.96, ubc: 0.97, langara: 0.94 };

describe('agreement with the shipped parsed trees', () => {
  const report = measureAgreement();

  it('agrees with the SFU LLM trees and the approved Langara trees above the measured floor', () => {
    console.log(
      `prerequisite agreement: SFU ${report.sfu.agree}/${report.sfu.total} = ${report.sfu.rate} (fully parsed ${report.sfu.fullyParsedRate}); ` +
        `Langara ${report.langara.agree}/${report.langara.total} = ${report.langara.rate} (fully parsed ${report.langara.fullyParsedRate})`,
    );
    for (const d of report.disagreements) console.log(`  [${d.source} ${d.reason}] ${d.course ?? ''} ours ${d.ours} | theirs ${d.theirs}`);
    expect(report.sfu.total).toBe(196);
    expect(report.langara.total).toBe(136);
    expect(report.sfu.rate).toBeGreaterThanOrEqual(THRESHOLDS.sfu);
    expect(report.langara.rate).toBeGreaterThanOrEqual(THRESHOLDS.langara);
    expect(report.disagreements).toHaveLength(report.sfu.total - report.sfu.agree + report.langara.total - report.langara.agree);
  });

  it('fully parses nearly every shipped text', () => {
    const coverage = measureCoverage();
    console.log(`fully parsed: ${coverage.map((c) => `${c.source} ${c.fullyParsed}/${c.total} = ${c.rate}`).join('; ')}`);
    for (const { source, rate } of coverage) expect(rate, source).toBeGreaterThanOrEqual(COVERAGE[source]);
  });

  it('compares structure, not order, nesting or non-course detail', () => {
    const key = (text: string) => canonicalKey(parsePrerequisites(text, { institution: 'sfu' }).tree);
    expect(key('CMPT 225 and (MACM 101 or CMPT 210).')).toBe(key('(CMPT 210 or MACM 101) and CMPT 225.'));
    expect(key('CMPT 225 and (MACM 101 or CMPT 210).')).toBe('all(CMPT 225, any(CMPT 210, MACM 101))');
    // Non-course requirements collapse to one placeholder; "or equivalent" is a flag, not a node.
    expect(key('CMPT 426, CGPA of 2.50.')).toBe('all(CMPT 426, •)');
    expect(key('STAT 350 or equivalent.')).toBe('STAT 350');
    expect(key('None.')).toBe('∅');
  });
});

describe('the whole shipped corpus', () => {
  it.each([
    ['SFU', sfuTexts],
    ['UBC', ubcTexts],
    ['Langara', langaraTexts],
  ])('parses every %s text without throwing into a schema-valid result', (_name, texts) => {
    const rows = texts();
    expect(rows.length).toBeGreaterThan(700);
    for (const row of rows) {
      const result = parsePrerequisites(row.text, { institution: row.source, defaultSubject: row.subject, corequisite: row.field === 'corequisites' });
      const validated = ParseResultSchema.safeParse(result);
      expect(validated.success, `${row.course}: ${row.text}`).toBe(true);
      // The schema strips unknown keys, so equality also proves the parser emits nothing undeclared.
      expect(validated.data, row.course).toEqual(result);
      expect(result.fullyParsed).toBe(result.unparsedClauses.length === 0);
    }
  });

  it('describes every field of the JSON Schema the MCP tool will publish', () => {
    const undocumented: string[] = [];
    const visit = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as { properties?: Record<string, { description?: string }>; $defs?: Record<string, unknown>; anyOf?: unknown[]; items?: unknown };
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (!property.description && !('$ref' in property)) undocumented.push(`${path}.${name}`);
        visit(property, `${path}.${name}`);
      }
      for (const [name, def] of Object.entries(schema.$defs ?? {})) visit(def, name);
      schema.anyOf?.forEach((option, i) => visit(option, `${path}|${i}`));
      visit(schema.items, `${path}[]`);
    };
    visit(z.toJSONSchema(ParseResultSchema, { io: 'output', unrepresentable: 'any' }), 'ParseResult');
    expect(undocumented).toEqual([]);
  });
});
