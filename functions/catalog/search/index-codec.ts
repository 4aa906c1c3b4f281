import type { IndexedDocs, Postings } from './index-build.js';
import { SearchIndex } from './search-index.js';
import { PackedTable, valuesOf } from './string-table.js';
import type { SubjectNames } from './subject-names.js';

const MAGIC = 'TNSI';
/**
 * 4: course standing (requiredBy, traits) and subject names for the ranking of ADR 0033; 5: each
 * course's prerequisite edges (which of a query's matches comes first); 6: a weight's lowest bit says
 * its term is in the course's title (a course about a word, not one mentioning it). Older artifacts are rebuilt.
 */
const FORMAT = 6;
const TABLES = ['refs', 'codes', 'numbers', 'titles', 'snippets'] as const;
const ARRAYS = ['institutionOf', 'subjectOf', 'levels', 'credits', 'offsets', 'postingDocs', 'postingWeights', 'offeredOffsets', 'offeredIds', 'requiredBy', 'traits', 'requiresOffsets', 'requiresIds'] as const;
const TYPES = {
  institutionOf: Uint16Array,
  subjectOf: Uint16Array,
  levels: Uint8Array,
  credits: Float32Array,
  offsets: Uint32Array,
  postingDocs: Uint32Array,
  postingWeights: Float32Array,
  offeredOffsets: Uint32Array,
  offeredIds: Uint16Array,
  requiredBy: Uint16Array,
  traits: Uint8Array,
  requiresOffsets: Uint32Array,
  requiresIds: Uint32Array,
};

interface Header {
  format: number;
  institutions: string[];
  subjects: string[];
  offeredTerms: string[];
  subjectNames: SubjectNames;
  /** Byte lengths, in order: each table's bytes then its offsets, the terms' likewise, then ARRAYS. */
  sections: number[];
}

/**
 * One binary artifact: a JSON header, then 4-byte-aligned sections (each string column as UTF-8 bytes
 * plus an offsets array, the terms likewise, then the typed arrays). Loading makes views over the
 * buffer and decodes only the terms: no per-course objects or strings, which is what lets a cold
 * function search within a few hundred milliseconds.
 */
export function encodeIndex(index: SearchIndex): Buffer {
  const { docs, postings } = index;
  const terms = PackedTable.pack(postings.terms);
  const sections: ArrayBufferView[] = [
    ...[...TABLES.map((name) => docs[name]), terms].flatMap((table) => [table.parts.bytes, table.parts.offsets]),
    ...ARRAYS.map((name) => (name in docs ? docs[name as keyof IndexedDocs] : postings[name as keyof Postings]) as ArrayBufferView),
  ];
  const header: Header = {
    format: FORMAT,
    institutions: docs.institutions,
    subjects: docs.subjects,
    offeredTerms: docs.offeredTerms,
    subjectNames: docs.subjectNames,
    sections: sections.map((s) => s.byteLength),
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const parts: Buffer[] = [Buffer.from(MAGIC), u32(json.length), json];
  let length = 8 + json.length;
  for (const section of sections) {
    const pad = (4 - (length % 4)) % 4;
    parts.push(Buffer.alloc(pad), Buffer.from(section.buffer, section.byteOffset, section.byteLength));
    length += pad + section.byteLength;
  }
  return Buffer.concat(parts, length);
}

export function decodeIndex(input: Uint8Array): SearchIndex {
  // Views need 4-byte alignment of the whole artifact; a buffer that does not start aligned is copied once.
  const bytes = input.byteOffset % 4 === 0 ? input : new Uint8Array(input);
  const text = (from: number, to: number) => Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString('utf8');
  if (text(0, 4) !== MAGIC) throw new Error('not a search index artifact');
  const jsonLength = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
  const header = JSON.parse(text(8, 8 + jsonLength)) as Header;
  if (header.format !== FORMAT) throw new Error(`search index format ${header.format} is not ${FORMAT}`);
  let at = 8 + jsonLength;
  const sections = header.sections.map((size) => {
    at += (4 - (at % 4)) % 4;
    const view = { offset: bytes.byteOffset + at, size };
    at += size;
    return view;
  });
  const view = <T extends { BYTES_PER_ELEMENT: number }>(Type: new (buffer: ArrayBufferLike, offset: number, length: number) => T, i: number) =>
    new Type(bytes.buffer, sections[i]!.offset, sections[i]!.size / (Type as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT);
  const table = (i: number) => new PackedTable(view(Uint8Array, 2 * i), view(Uint32Array, 2 * i + 1));
  const [refs, codes, numbers, titles, snippets, terms] = [0, 1, 2, 3, 4, 5].map(table);
  const arrays = Object.fromEntries(ARRAYS.map((name, i) => [name, view(TYPES[name] as never, 12 + i)])) as unknown as Pick<
    IndexedDocs,
    'institutionOf' | 'subjectOf' | 'levels' | 'credits' | 'offeredOffsets' | 'offeredIds' | 'requiredBy' | 'traits' | 'requiresOffsets' | 'requiresIds'
  > &
    Pick<Postings, 'offsets' | 'postingDocs' | 'postingWeights'>;
  return new SearchIndex(
    {
      refs: refs!,
      codes: codes!,
      numbers: numbers!,
      titles: titles!,
      snippets: snippets!,
      institutions: header.institutions,
      subjects: header.subjects,
      offeredTerms: header.offeredTerms,
      subjectNames: header.subjectNames,
      ...arrays,
    },
    { terms: valuesOf(terms!) as string[], offsets: arrays.offsets, postingDocs: arrays.postingDocs, postingWeights: arrays.postingWeights },
  );
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer;
}
