/** A bar chart of one grade distribution; suppressed bins are drawn as dashed, labelled gaps, never as zero. */

export interface Bin {
  label: string;
  count: number | null;
}

export function GradeChart({ bins, caption }: { bins: Bin[]; caption: string }) {
  const max = Math.max(1, ...bins.map((bin) => bin.count ?? 0));
  const summary = bins.map((bin) => `${bin.label}: ${bin.count ?? 'suppressed'}`).join(', ');
  return (
    <figure>
      <div class="chart" role="img" aria-label={`${caption}. ${summary}`}>
        {bins.map((bin) => (
          <div class="bin" key={bin.label} title={`${bin.label}: ${bin.count ?? 'suppressed (too few students)'}`}>
            {bin.count === null ? <div class="suppressed">suppressed</div> : <div class="fill" style={{ height: `${(bin.count / max) * 100}%` }} />}
          </div>
        ))}
      </div>
      <div class="chart-labels" aria-hidden="true">
        {bins.map((bin) => (
          <span key={bin.label}>{bin.label}</span>
        ))}
      </div>
      <figcaption class="muted">{caption}</figcaption>
    </figure>
  );
}
