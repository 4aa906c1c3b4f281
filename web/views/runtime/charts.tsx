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

export { BarTable } from '../../src/components/bar-table.js';
