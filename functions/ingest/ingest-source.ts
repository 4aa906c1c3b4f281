import { CatalogRecordSchema, recordId, type AdapterContext, type CatalogRecord, type RejectedRecord, type SourceAdapter } from '../catalog/catalog-model.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../platform/store/keys.js';
import { runIngestion, type IngestionRun, type PreparedBatch, type RunOptions } from '../catalog/ingestion/ingestion-run.js';
import { stableHash, type OwnedRow } from '../catalog/ingestion/reconcile.js';
import { replaceTermsOffered, type TermsOffered } from '../catalog/catalog-store.js';

export type { IngestionRun } from '../catalog/ingestion/ingestion-run.js';

/**
 * One idempotent run of a catalog source (see runIngestion): what the source says of a course within one
 * of its scopes is one item of the course's partition; the term lists it makes are replaced after.
 */
export async function ingestSource(store: Store, adapter: SourceAdapter, origin: string, options: RunOptions = {}): Promise<IngestionRun> {
  return runIngestion(
    store,
    adapter.name,
    origin,
    (text, context) => {
      const batch = prepareCatalog(adapter, text, context);
      const offered = termsOfferedIn(adapter, batch.items);
      return { ...batch, ...(offered.lists.length ? { afterWrite: () => replaceTermsOffered(store, adapter.name, offered.scopes, offered.lists) } : {}) };
    },
    options,
  );
}

/** The courses each term's sections or offerings name, per institution and scope (the search's term filter). */
function termsOfferedIn(adapter: SourceAdapter, items: OwnedRow[]): { scopes: Set<string>; lists: TermsOffered[] } {
  const byKey = new Map<string, TermsOffered & { set: Set<string> }>();
  for (const item of items) {
    const record = item.attributes.record as CatalogRecord;
    if (record.kind !== 'section' && record.kind !== 'offering') continue;
    const key = `${record.institution}|${item.scope}|${record.term}`;
    if (!byKey.has(key)) byKey.set(key, { institution: record.institution, source: adapter.name, scope: item.scope, term: record.term, codes: [], set: new Set() });
    byKey.get(key)!.set.add(record.code);
  }
  const lists = [...byKey.values()].map(({ set, ...list }) => ({ ...list, codes: [...set].sort() }));
  return { scopes: new Set(items.map((item) => item.scope)), lists };
}

function prepareCatalog(adapter: SourceAdapter, text: string, context: AdapterContext): PreparedBatch {
  const output = adapter.parse(text, context);
  const { valid, rejected } = validate(output.records, output.rejected);
  const institutions = new Map<string, { records: number }>();
  for (const record of valid) institutions.set(record.institution, { records: (institutions.get(record.institution)?.records ?? 0) + 1 });
  return {
    parsed: valid.length,
    rejected,
    institutions,
    items: valid.map((record) => {
      const scope = adapter.scopeOf?.(record, context) ?? 'all';
      return {
        aggregate: {
          ...catalogKeys.courseRecords(record.institution, record.code, adapter.name, scope),
          entity: ENTITY.courseRecords,
          ownerScope: adapter.ownerScopeOf?.(record, context) ?? scope,
          // A course fragment lists its item under its institution, for the search index build.
          ...(record.kind === 'course' ? { listing: catalogKeys.byInstitution(record.institution, record.code, adapter.name, scope) } : {}),
        },
        id: recordId(record),
        scope,
        hash: contentHash(record),
        attributes: { record },
      };
    }),
  };
}

function validate(records: CatalogRecord[], rejectedByAdapter: RejectedRecord[]) {
  const rejected = [...rejectedByAdapter];
  const valid: CatalogRecord[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    const parsed = CatalogRecordSchema.safeParse(record);
    if (!parsed.success) {
      rejected.push({ sourceRecordId: record?.provenance?.sourceRecordId, reason: `invalid record: ${parsed.error.issues[0]?.message}`, raw: record });
      continue;
    }
    const key = `${parsed.data.institution}|${parsed.data.code}|${recordId(parsed.data)}`;
    if (seen.has(key)) {
      rejected.push({ sourceRecordId: parsed.data.provenance.sourceRecordId, reason: `duplicate record ${key}` });
      continue;
    }
    seen.add(key);
    valid.push(parsed.data);
  }
  return { valid, rejected };
}

/** Hash of what the record says, not when we saw it: an unchanged source hashes the same every run. */
function contentHash(record: CatalogRecord): string {
  const { ingestedAt: _ignored, ...provenance } = record.provenance;
  return stableHash({ ...record, provenance });
}
