/**
 * The shape catalog data is stored in, kept in the catalog version item (ADR 0042). Nothing reads an
 * older shape: a local data directory holding one is rebuilt from the sample, and sample-file markers
 * of an older format do not count as loaded, so a deployed table's bundled files load again.
 * 1: record packs per subject level (ADR 0021, 0023); 2: course item collections.
 */
export const STORAGE_FORMAT = 2;
