import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../platform/store/query-all.js';
import { findInstitution } from './institutions.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../platform/store/keys.js';
import { beginsWith, declareAccessPatterns, param } from '../platform/store/access-patterns.js';

interface SourceFreshness {
  source: string;
  lastIngestedAt: string;
  records: number;
  /** Of those, records with the institution as the sending side (transfer rules it sends). */
  sent?: number;
  /** Transfer rules: the receivers the institution has sent rules towards (kept across runs). */
  receivers?: string[];
}

export interface InstitutionEntry {
  id: string;
  name: string;
  bctgCode?: string;
  sources: SourceFreshness[];
}

/**
 * The freshness of one source for every institution a run saw. A run in which an institution only
 * receives rules leaves what an earlier run said it sends: a receiver in one file is a sender in another.
 * The receivers it sends rules towards accumulate: a file of one pair says nothing about the sender's others.
 */
export async function recordInstitutionFreshness(
  store: Store,
  source: string,
  institutions: Map<string, { records: number; sent?: number; receivers?: string[] }>,
  at: string,
): Promise<void> {
  await Promise.all(
    [...institutions].map(([id, seen]) =>
      store.doc.send(
        new UpdateCommand({
          TableName: store.tableName,
          Key: catalogKeys.institutionSource(id, source),
          UpdateExpression: `SET entity = :entity, institution = :id, #source = :source, lastIngestedAt = :at, records = :records${
            seen.sent === undefined ? '' : seen.sent > 0 ? ', sent = :sent' : ', sent = if_not_exists(sent, :sent)'
          }${seen.receivers?.length ? ' ADD receivers :receivers' : ''}`,
          ExpressionAttributeNames: { '#source': 'source' },
          ExpressionAttributeValues: {
            ':entity': ENTITY.institution,
            ':id': id,
            ':source': source,
            ':at': at,
            ':records': seen.records,
            ...(seen.sent === undefined ? {} : { ':sent': seen.sent }),
            ...(seen.receivers?.length ? { ':receivers': new Set(seen.receivers) } : {}),
          },
        }),
      ),
    ),
  );
}

/** Institutions named by data (e.g. transfer rules) exist even before any catalog source covers them. */
export async function ensureInstitution(store: Store, id: string, nameFromData?: string): Promise<void> {
  const known = findInstitution(id);
  try {
    await store.doc.send(
      new PutCommand({
        TableName: store.tableName,
        Item: { ...catalogKeys.institution(id), entity: ENTITY.institution, id, name: known?.name ?? nameFromData ?? id, bctgCode: known?.bctgCode },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
  }
}

export async function listInstitutions(store: Store): Promise<InstitutionEntry[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': catalogKeys.institutionsPartition, ':prefix': catalogKeys.institutionPrefix },
  });

  const byId = new Map<string, InstitutionEntry>();
  for (const item of items.filter((i) => !String(i.SK).includes('#SOURCE#'))) {
    byId.set(String(item.id), { id: String(item.id), name: String(item.name), ...(item.bctgCode ? { bctgCode: String(item.bctgCode) } : {}), sources: [] });
  }
  for (const item of items.filter((i) => String(i.SK).includes('#SOURCE#'))) {
    byId.get(String(item.institution))?.sources.push({
      source: String(item.source),
      lastIngestedAt: String(item.lastIngestedAt),
      records: Number(item.records),
      ...(item.sent !== undefined ? { sent: Number(item.sent) } : {}),
      ...(item.receivers instanceof Set ? { receivers: [...(item.receivers as Set<string>)].sort() } : {}),
    });
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => [
  {
    name: 'Institutions with per-source freshness',
    entity: ENTITY.institution,
    operation: 'Query',
    index: 'table',
    key: { PK: catalogKeys.institutionsPartition, SK: beginsWith(catalogKeys.institutionPrefix) },
    usedBy: ['tn_course_institutions', 'tn_course_search (index build)', 'tn_transfer_resolve and tn_transfer_compare that found no rule (which institutions send rules, and towards whom)'],
    notes: 'One partition: each institution, and beside it one freshness item per source that covered it.',
  },
  {
    name: 'Name an institution the data mentions',
    entity: ENTITY.institution,
    operation: 'PutItem',
    index: 'table',
    key: catalogKeys.institution(param('institution')),
    usedBy: ['ingestion'],
    notes: 'Condition attribute_not_exists(PK): the first name given stays.',
  },
  {
    name: "Record a source's freshness for an institution",
    entity: ENTITY.institution,
    operation: 'UpdateItem',
    index: 'table',
    key: catalogKeys.institutionSource(param('institution'), param('source')),
    usedBy: ['ingestion', 'crawls (a part that changed, or was never recorded)'],
    notes: 'One per institution a run saw, with the records it had about it; transfer rules it sends are kept when a later run only has it receiving, and the receivers it sends them towards accumulate (ADD to a string set).',
  },
]);
