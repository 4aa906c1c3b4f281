/**
 * Charts for views, each readable without sight: an SVG with a title and a description listing every
 * value, value labels drawn as text, and missing values drawn as labelled gaps rather than zeros.
 */

export interface Point {
  label: string;
  value: number | null;
  /** Shown under the label, e.g. "7 sections". */
  note?: string;
}

const BAR_WIDTH = 64;
const GAP = 14;
const HEIGHT = 170;
const TOP = 22;
const BOTTOM = 40;

/** Vertical bars with their values on top; the axis starts near the lowest value so differences show, and says where. */
export function ColumnChart({ id, title, points, format }: { id: string; title: string; points: Point[]; format: (value: number) => string }) {
  const values = points.map((p) => p.value).filter((v): v is number => v !== null);
  const floor = values.length ? Math.max(0, Math.floor((Math.min(...values) - 5) / 10) * 10) : 0;
  const ceiling = values.length ? Math.max(...values) : 1;
  const span = Math.max(1, ceiling - floor);
  const plot = HEIGHT - TOP - BOTTOM;
  const width = Math.max(320, points.length * (BAR_WIDTH + GAP) + GAP + 30);
  const description = points.map((p) => `${p.label}: ${p.value === null ? 'no data' : format(p.value)}`).join('; ');
  // Drawn at its own size, so its text stays legible, and shrunk only where the frame is narrower.
  return (
    <svg class="chart-svg" width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="xMinYMin meet">
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      <line class="axis" x1="30" x2={width} y1={TOP + plot} y2={TOP + plot} />
      <text x="26" y={TOP + plot} text-anchor="end" font-size="11" class="muted-text">
        {floor}
      </text>
      {points.map((point, index) => {
        const x = 30 + GAP + index * (BAR_WIDTH + GAP);
        const h = point.value === null ? plot : Math.max(2, ((point.value - floor) / span) * plot);
        const y = TOP + plot - h;
        return (
          <g key={point.label}>
            <title>{`${point.label}: ${point.value === null ? 'no data' : format(point.value)}${point.note ? ` (${point.note})` : ''}`}</title>
            {point.value === null ? <rect class="gap" x={x} y={y} width={BAR_WIDTH} height={h} /> : <rect class="bar" x={x} y={y} width={BAR_WIDTH} height={h} rx="3" />}
            <text x={x + BAR_WIDTH / 2} y={y - 6} text-anchor="middle" font-size="12" font-weight="600">
              {point.value === null ? 'n/a' : format(point.value)}
            </text>
            <text x={x + BAR_WIDTH / 2} y={TOP + plot + 15} text-anchor="middle" font-size="11">
              {point.label}
            </text>
            {point.note && (
              <text x={x + BAR_WIDTH / 2} y={TOP + plot + 29} text-anchor="middle" font-size="10" class="muted-text">
                {point.note}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** Rows of labelled bars as a table: the figures are the table's cells, the bars only draw them. */
export function BarTable({ caption, head, rows, format }: { caption: string; head: [string, string, string]; rows: (Point & { detail: string })[]; format: (value: number) => string }) {
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
              <span class="hbar" aria-hidden="true" style={{ width: row.value === null ? '0' : `${Math.max(3, ((row.value - floor) / span) * 100)}%` }} />
              <span class="value">{row.value === null ? 'n/a' : format(row.value)}</span>
            </td>
            <td class="muted">{row.detail}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
