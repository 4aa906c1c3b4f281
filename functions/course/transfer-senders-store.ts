import { declareAccessPatterns, param } from '../shared/store/access-patterns.js';
import { getAll } from '../shared/store/batch-reads.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../shared/store/keys.js';

/**
 * Which institutions send transfer rules, and towards which receivers: the manifests transfer
 * ingestion keeps per sender (the transfer tools plan from exactly these), read in one batch so the
 * planner can offer the senders it can plan from.
 */
export async function transferReceiversBySender(store: Store, institutions: string[]): Promise<Map<string, string[]>> {
  const prefix = catalogKeys.transferIndexManifest('').PK;
  const items = await getAll(store, institutions.map((id) => catalogKeys.transferIndexManifest(id)));
  return new Map(
    items
      .map((item) => [String(item.PK).slice(prefix.length), ((item.receivers as string[] | undefined) ?? []).slice().sort()] as const)
      .filter(([, receivers]) => receivers.length > 0),
  );
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => [
  {
    name: 'Which institutions send transfer rules (their transfer-index manifests)',
    entity: ENTITY.transferIndex,
    operation: 'BatchGetItem',
    index: 'table',
    key: catalogKeys.transferIndexManifest(param('sender')),
    usedBy: ['tn_course_institutions (sendsTransferRules, transferReceivers: what the transfer planner offers)'],
  },
]);
