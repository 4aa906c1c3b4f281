/**
 * A grade distribution's bins, each student counted once. UBC's oldest reports (PAIR) give failing
 * grades twice: as 0-9, 10-19, 20-29, 30-39, 40-49 and again as "<50", their sum; a chart or a total
 * over every bin would count those students twice. A bin whose range is exactly covered by narrower
 * bins of the same row is such a restatement, and only one of the two is kept: the narrower bins when
 * all of them are known, else the wider one when it is known (the narrower ones were suppressed), else
 * the narrower ones with their gaps.
 */

export interface Bin {
  label: string;
  count: number | null;
}

/** A bin's range in whole percent, upper end exclusive: "<50" → [0, 50), "50-54" → [50, 55), "90-100" → [90, 101). */
export function binRange(label: string): [number, number] | undefined {
  const below = /^<\s*(\d{1,3})$/.exec(label.trim());
  if (below) return [0, Number(below[1])];
  const span = /^(\d{1,3})\s*-\s*(\d{1,3})$/.exec(label.trim());
  if (span && Number(span[1]) <= Number(span[2])) return [Number(span[1]), Number(span[2]) + 1];
  return undefined;
}

/** The narrower bins inside a bin's range when they cover all of it, end to end; undefined otherwise. */
function tilesOf(range: [number, number], others: { bin: Bin; range: [number, number] }[]): Bin[] | undefined {
  const inside = others
    .filter((o) => o.range[0] >= range[0] && o.range[1] <= range[1] && o.range[1] - o.range[0] < range[1] - range[0])
    .sort((a, b) => a.range[0] - b.range[0]);
  let reached = range[0];
  for (const o of inside) {
    if (o.range[0] !== reached) return undefined;
    reached = o.range[1];
  }
  return inside.length > 1 && reached === range[1] ? inside.map((o) => o.bin) : undefined;
}

/** The bins with every restated range given once, in their original order. */
export function distinctBins(bins: Bin[]): Bin[] {
  const ranged = bins.map((bin) => ({ bin, range: binRange(bin.label) })).filter((b): b is { bin: Bin; range: [number, number] } => b.range !== undefined);
  const dropped = new Set<Bin>();
  // Widest first, so a restatement inside a restatement is settled from the outside in.
  for (const wide of [...ranged].sort((a, b) => b.range[1] - b.range[0] - (a.range[1] - a.range[0]))) {
    if (dropped.has(wide.bin)) continue;
    const tiles = tilesOf(wide.range, ranged.filter((o) => o !== wide && !dropped.has(o.bin)));
    if (!tiles) continue;
    if (tiles.every((t) => t.count !== null) || wide.bin.count === null) dropped.add(wide.bin);
    else tiles.forEach((t) => dropped.add(t));
  }
  return bins.filter((bin) => !dropped.has(bin));
}
