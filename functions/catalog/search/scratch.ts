/**
 * Per-course arrays a query accumulates into: allocated once per index (a query never allocates per
 * course) and cleared after each query for the courses it touched only.
 */
export class Scratch {
  /** One word's best match per course while that word is scored. */
  readonly tokenBest: Float32Array;
  readonly score: Float32Array;
  /** How many of the query's (required) words a course matched. */
  readonly matched: Uint8Array;

  constructor(size: number) {
    this.tokenBest = new Float32Array(size);
    this.score = new Float32Array(size);
    this.matched = new Uint8Array(size);
  }

  reset(touched: number[]): void {
    for (const doc of touched) {
      this.score[doc] = 0;
      this.matched[doc] = 0;
    }
  }
}
