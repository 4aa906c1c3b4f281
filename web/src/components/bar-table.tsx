/** Rows of labelled bars as a table: the figures are the table's cells, the bars only draw them (the course page and the grade view). */

export interface BarRow {
  label: string;
  value: number | null;
  detail: string;
}

export function BarTable({ caption, head, rows, format }: { caption: string; head: [string, string, string]; rows: BarRow[]; format: (value: number) => string }) {
  const values = rows.map((r) => r.value).filter((v): v is number => v !== null);
  const floor = values.length ? Math.max(0, Math.floor((Math.min(...values) - 5) / 10) * 10) : 0;
  const span = Math.max(1, (values.length ? Math.max(...values) : 1) - floor);
  return (
    <table class="bar-table">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{head[0]}</th>
          <th scope="col">{head[1]}</th>
          <th scope="col">{head[2]}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td class="bar-cell">
              <div class="bar-line">
                <span class="bar-track" aria-hidden="true">
                  <span class="hbar" style={{ width: row.value === null ? '0' : `${Math.max(3, ((row.value - floor) / span) * 100)}%` }} />
                </span>
                <span class="value">{row.value === null ? 'n/a' : format(row.value)}</span>
              </div>
            </td>
            <td class="muted">{row.detail}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
