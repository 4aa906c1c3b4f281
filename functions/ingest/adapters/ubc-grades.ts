import type { AdapterContext, AdapterOutput, GradeDistribution, SourceAdapter } from '../../catalog/catalog-model.js';
import { readCsvTable, rowCells, type CsvRow, type CsvTable } from '../../catalog/ingestion/csv.js';
import { RecordError, combine, courseCode, fileRejected, mapRecords, provenance, term, text } from './shared.js';

const SOURCE = 'ubc-grades';
type Format = GradeDistribution['format'];

const COMMON = ['Campus', 'Year', 'Session', 'Subject', 'Course', 'Detail', 'Section', 'Title', 'Professor', 'Avg', 'High', 'Low'];
const FORMAT_COLUMNS: Record<Format, string[]> = {
  v2: ['Reported', 'Median', 'Percentile (25)', 'Percentile (75)'],
  v1: ['Enrolled', 'Std dev'],
  pair: ['Enrolled', 'Std dev', 'Pass', 'Fail', 'Withdrew', 'Audit', 'Other'],
};
/** Grade bins are the only columns named like "<50" or "90-100"; PAIR's Pass/Fail/… counts are not grades. */
const BIN_LABEL = /^(<\d{1,3}|\d{1,3}-\d{1,3})$/;
const CAMPUS: Record<string, string> = { UBCV: 'ubc', UBC: 'ubc', UBCO: 'ubco' };

/** Picks the format by its distinguishing columns, then insists the whole column set is present. */
export function detectFormat(header: readonly string[]): Format | undefined {
  const has = (name: string): boolean => header.includes(name);
  const format: Format | undefined = has('Reported') ? 'v2' : has('Pass') ? 'pair' : has('Enrolled') ? 'v1' : undefined;
  if (!format || ![...COMMON, ...FORMAT_COLUMNS[format]].every(has)) return undefined;
  return format;
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Reads numeric cells. An empty cell is the source suppressing a figure (too few students), so it
 * becomes null and marks the row suppressed; a non-empty non-number is a broken row.
 */
function numberReader(cells: Record<string, string>) {
  let suppressed = false;
  const read = (column: string): number | null => {
    const value = (cells[column] ?? '').trim();
    if (value === '') {
      suppressed = true;
      return null;
    }
    if (!NUMBER.test(value)) throw new RecordError(`${column} is not a number: "${value}"`);
    return Number(value);
  };
  return { read, suppressed: () => suppressed };
}

/** PAIR writes "Last, First"; the dashboards already write "First Last". */
function instructors(cell: string, format: Format): string[] {
  return cell
    .split(';')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map((name) => {
      if (format !== 'pair') return name;
      const parts = name.split(',').map((part) => part.trim());
      return parts.length === 2 && parts[0] && parts[1] ? `${parts[1]} ${parts[0]}` : name;
    });
}

function sourceRecordIdOf(get: (column: string) => string): string {
  return `${get('Campus')} ${get('Year')}${get('Session')} ${get('Subject')} ${get('Course')}${get('Detail')} ${get('Section')}`;
}

function gradeRecord(table: CsvTable, format: Format, bins: string[], row: CsvRow, context: AdapterContext): GradeDistribution {
  const cells = rowCells(table, row);
  if (typeof cells === 'string') throw new RecordError(cells);
  const get = (column: string): string => (cells[column] ?? '').trim();
  const institution = CAMPUS[get('Campus')];
  if (!institution) throw new RecordError(`unknown campus: "${get('Campus')}"`);
  const section = get('Section');
  if (!section) throw new RecordError('Section is blank');
  const numbers = numberReader(cells);
  const figures = {
    enrolled: numbers.read(format === 'v2' ? 'Reported' : 'Enrolled'),
    average: numbers.read('Avg'),
    ...(format === 'v2'
      ? { median: numbers.read('Median'), percentile25: numbers.read('Percentile (25)'), percentile75: numbers.read('Percentile (75)') }
      : { stdDev: numbers.read('Std dev') }),
    high: numbers.read('High'),
    low: numbers.read('Low'),
  };
  const gradeBins = bins.map((label) => ({ label, count: numbers.read(label) }));
  return {
    kind: 'grades',
    institution,
    // `Detail` is a course suffix (CPSC 448 + A = CPSC 448A, a different topic), not a section.
    code: courseCode(get('Subject'), `${get('Course')}${get('Detail')}`),
    provenance: provenance(SOURCE, context, sourceRecordIdOf(get)),
    term: term(`${get('Year')}${get('Session')}`),
    // v1 and PAIR carry course-wide rows whose Section is literally "OVERALL"; the name is kept.
    section,
    title: text(cells.Title),
    instructors: instructors(get('Professor'), format),
    ...figures,
    bins: gradeBins,
    suppressed: numbers.suppressed(),
    format,
  };
}

function parse(raw: string, context: AdapterContext): AdapterOutput {
  const table = readCsvTable(raw);
  const format = table ? detectFormat(table.header) : undefined;
  if (!table || !format) {
    return fileRejected(context, `unrecognised grades CSV header: "${raw.split(/\r?\n/, 1)[0] ?? ''}"`, raw).output;
  }
  const bins = table.header.filter((name) => BIN_LABEL.test(name));
  if (bins.length === 0) return fileRejected(context, 'grades CSV header has no grade-bin columns', raw).output;
  const idOf = (row: CsvRow): string =>
    sourceRecordIdOf((column) => row.fields[table.header.indexOf(column)]?.trim() ?? '?');
  return combine(mapRecords(table.rows, idOf, (row) => [gradeRecord(table, format, bins, row, context)]));
}

export const ubcGradesAdapter: SourceAdapter = {
  name: SOURCE,
  // One CSV per campus, session and subject: a run retires only rows of the files' own scope, and a course's
  // grades of one session are one item (a new session adds items, never rewrites older ones).
  scopeOf: (record) => `${record.institution}:${('term' in record && record.term) || ''}:${record.code.split(' ')[0]}`,
  ownerScopeOf: (record) => `${record.institution}:${('term' in record && record.term) || ''}`,
  description: 'UBC grade distributions (ubc-pair-grade-data CSVs: Tableau v2, Tableau v1, and PAIR formats)',
  institutions: ['ubc', 'ubco'],
  parse,
};
