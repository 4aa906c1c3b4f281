/** Parts are counted up to this (Calculus IV); deeper chains read as the last. */
const LAST_PART = 4;
/**
 * A prerequisite is an earlier part of the topic only if it matches the query at least as well (its
 * text score at least this share of the course's): UBC's CHEM 233 (Organic Chemistry…) requires
 * CHEM 123 (Thermodynamics, Kinetics and Organic Chemistry), which is less about organic chemistry.
 */
const AS_WELL = 1;
const IN_PROGRESS = 255;

/**
 * Which part of a topic each of a query's matches is, read from the catalog's prerequisites: a match
 * requiring none of the others starts the topic (part 1); one requiring a part-1 match that is about
 * the topic at least as much as itself is part 2, and so on. UBC titles no part ("Differential Calculus",
 * "Integral Calculus"), but MATH 101 requires MATH 100, so for "calculus" MATH 101 is part 2. A
 * prerequisite that only mentions the topic (CMPT 125 saying "data structures" in its description)
 * is no earlier part of it. A title's own numeral (Calculus II) is read elsewhere and wins.
 */
export class TopicSequence {
  private readonly matched: Uint8Array;
  private readonly parts: Uint8Array;

  constructor(
    size: number,
    private readonly requiresOffsets: Uint32Array,
    private readonly requiresIds: Uint32Array,
  ) {
    this.matched = new Uint8Array(size);
    this.parts = new Uint8Array(size);
  }

  /** The part of each match (readable with partOf until clear), from the matches' text scores before any weighing. */
  read(docs: number[], score: Float32Array): void {
    for (const doc of docs) this.matched[doc] = 1;
    for (const doc of docs) this.resolve(doc, score);
  }

  partOf(doc: number): number {
    const part = this.parts[doc]!;
    return part === IN_PROGRESS ? 0 : part;
  }

  clear(docs: number[]): void {
    for (const doc of docs) {
      this.matched[doc] = 0;
      this.parts[doc] = 0;
    }
  }

  private resolve(doc: number, score: Float32Array): number {
    const known = this.parts[doc]!;
    if (known === IN_PROGRESS) return 0; // a cycle in the catalog's prerequisites: no order to read
    if (known) return known;
    this.parts[doc] = IN_PROGRESS;
    let part = 1;
    const floor = score[doc]! * AS_WELL;
    for (let i = this.requiresOffsets[doc]!; i < this.requiresOffsets[doc + 1]! && part < LAST_PART; i++) {
      const required = this.requiresIds[i]!;
      if (!this.matched[required] || score[required]! < floor) continue;
      part = Math.max(part, Math.min(LAST_PART, this.resolve(required, score) + 1));
    }
    this.parts[doc] = part;
    return part;
  }
}
