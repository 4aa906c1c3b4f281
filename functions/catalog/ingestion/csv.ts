/**
 * A small RFC 4180 reader: comma-separated fields, CRLF or LF records, double-quoted fields that may
 * hold commas, line breaks and doubled quotes (`""`). Deliberately lenient where the RFC is silent
 * (a stray quote inside an unquoted field is kept as text) because a row-level adapter can reject a
 * bad row, while a parser that throws would lose the whole file.
 */

export interface CsvRow {
  /** 1-based line on which the record starts (records can span lines inside quotes). */
  line: number;
  fields: string[];
  /** Set when the record could not be read cleanly (e.g. a quote never closed). */
  error?: string;
}

export function parseCsv(text: string): CsvRow[] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: CsvRow[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let rowLine = 1;
  let inQuotes = false;
  // Distinguishes `a,` (two fields) from an empty line (no record) at the end of a row.
  let rowHasContent = false;

  const endField = (): void => {
    fields.push(field);
    field = '';
  };
  const endRow = (): void => {
    endField();
    // Blank lines are layout, not records with one empty field.
    if (rowHasContent || fields.length > 1 || fields[0] !== '') rows.push({ line: rowLine, fields });
    fields = [];
    rowHasContent = false;
  };

  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (inQuotes) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && field === '') {
      inQuotes = true;
      rowHasContent = true;
    } else if (ch === ',') {
      endField();
      rowHasContent = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && input[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else {
      field += ch;
    }
  }

  if (inQuotes) {
    endField();
    rows.push({ line: rowLine, fields, error: 'quoted field is never closed' });
  } else if (field !== '' || fields.length > 0 || rowHasContent) {
    endRow();
  }
  return rows;
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

/** Splits off the header row (trimmed names); undefined for a file with no header at all. */
export function readCsvTable(text: string): CsvTable | undefined {
  const [first, ...rows] = parseCsv(text);
  if (!first || first.error) return undefined;
  return { header: first.fields.map((name) => name.trim()), rows };
}

/**
 * The row's cells by column name. Returns a reason instead when the row cannot be trusted: a
 * column-count mismatch means fields have shifted, so no cell can be read by position.
 */
export function rowCells(table: CsvTable, row: CsvRow): Record<string, string> | string {
  if (row.error) return `line ${row.line}: ${row.error}`;
  if (row.fields.length !== table.header.length) {
    return `line ${row.line}: expected ${table.header.length} columns, got ${row.fields.length}`;
  }
  return Object.fromEntries(table.header.map((name, index) => [name, row.fields[index] ?? '']));
}
