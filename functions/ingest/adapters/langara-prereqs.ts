import type { AdapterContext, AdapterOutput, CourseFragment, SourceAdapter } from '../../catalog/catalog-model.js';
import { readCsvTable, rowCells, type CsvRow, type CsvTable } from '../../catalog/ingestion/csv.js';
import { RecordError, combine, courseCode, fileRejected, mapRecords, provenance } from './shared.js';

const SOURCE = 'langara-prereqs';
const INSTITUTION = 'langara';
const COLUMNS = ['subject', 'course_code', 'prerequisite_text'];

/**
 * Every one of the 777 texts opens with the page label "Prerequisite(s): ". It is stripped because
 * `prerequisitesText` is already the labelled field and SFU/UBC texts carry no such label, so a
 * merged course would otherwise render "Prerequisites: Prerequisite(s): …". Everything after the
 * label is kept verbatim (including "None." and "valid for only three years" clauses): rewording is
 * the parser's job, not the ingest's. Note that `converted-subset.json` is keyed by the full text,
 * so a join against it must put the label back.
 */
const PREREQ_LABEL = /^\s*Prerequisite\(s\):\s*/;

function courseFragment(table: CsvTable, row: CsvRow, context: AdapterContext): CourseFragment {
  const cells = rowCells(table, row);
  if (typeof cells === 'string') throw new RecordError(cells);
  const code = courseCode(cells.subject ?? '', cells.course_code ?? '');
  const prerequisitesText = (cells.prerequisite_text ?? '').replace(PREREQ_LABEL, '').trim();
  if (!prerequisitesText) throw new RecordError(`line ${row.line}: prerequisite_text is blank`);
  return { kind: 'course', institution: INSTITUTION, code, provenance: provenance(SOURCE, context, code), prerequisitesText };
}

function parse(raw: string, context: AdapterContext): AdapterOutput {
  const table = readCsvTable(raw);
  const missing = table ? COLUMNS.filter((name) => !table.header.includes(name)) : COLUMNS;
  if (!table || missing.length > 0) return fileRejected(context, `CSV header lacks ${missing.join(', ')}`, raw).output;
  return combine(
    mapRecords(
      table.rows,
      // Subject and code usually survive a row that lost a later column, so the reject still names its course.
      (row) => ['subject', 'course_code'].map((name) => row.fields[table.header.indexOf(name)]?.trim() ?? '?').join(' '),
      (row) => [courseFragment(table, row, context)],
    ),
  );
}

export const langaraPrereqsAdapter: SourceAdapter = {
  name: SOURCE,
  description: 'Langara College prerequisite text (~May 2025, prerequisites-text.csv) as course fragments',
  institutions: [INSTITUTION],
  parse,
};
