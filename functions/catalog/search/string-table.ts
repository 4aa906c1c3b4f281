/** A column of strings read by position: an array when built, a UTF-8 run when loaded from an artifact. */
export interface StringTable {
  readonly length: number;
  get(index: number): string | null;
}

/**
 * Strings decoded only when asked for: a cold function loads 100,000 courses' titles and snippets as
 * one buffer and an offsets array, and turns into strings just the ones a page of results shows.
 */
export class PackedTable implements StringTable {
  constructor(
    private readonly bytes: Uint8Array,
    /** length + 1 entries; an entry of 0xFFFFFFFF marks a null. */
    private readonly offsets: Uint32Array,
  ) {}

  static pack(values: (string | null)[]): PackedTable {
    const encoder = new TextEncoder();
    const parts = values.map((value) => (value === null ? null : encoder.encode(value)));
    const offsets = new Uint32Array(values.length + 1);
    const nulls: number[] = [];
    let length = 0;
    parts.forEach((part, i) => {
      offsets[i] = length;
      if (part === null) nulls.push(i);
      length += part?.length ?? 0;
    });
    offsets[values.length] = length;
    const bytes = new Uint8Array(length);
    parts.forEach((part, i) => part && bytes.set(part, offsets[i]!));
    // A null is an empty run whose start is marked, so "" and null stay apart.
    for (const i of nulls) offsets[i] = NULL_MARK;
    return new PackedTable(bytes, offsets);
  }

  get length(): number {
    return this.offsets.length - 1;
  }

  get(index: number): string | null {
    const start = this.offsets[index]!;
    if (start === NULL_MARK) return null;
    return DECODER.decode(this.bytes.subarray(start, this.endOf(index)));
  }

  get parts(): { bytes: Uint8Array; offsets: Uint32Array } {
    return { bytes: this.bytes, offsets: this.offsets };
  }

  private endOf(index: number): number {
    for (let next = index + 1; ; next++) {
      const end = this.offsets[next]!;
      if (end !== NULL_MARK) return end;
    }
  }
}

const NULL_MARK = 0xffffffff;
const DECODER = new TextDecoder();

/** Every value of a table, in order (small tables, and the rare whole-table read). */
export function valuesOf(table: StringTable): (string | null)[] {
  return Array.from({ length: table.length }, (_, i) => table.get(i));
}
