import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns } from './access-patterns.js';
import type { Store } from './dynamo-client.js';
import { ENTITY, HEALTH_PROBE_KEY } from './keys.js';

/** A health check waits this long for the table; a dead emulator or an unreachable region is "unavailable", not a hang. */
const PROBE_TIMEOUT_MS = 2_000;
/** One probe answers every health check for this long, so polling /healthz under load costs the table next to nothing. */
const PROBE_REUSE_MS = 1_000;

const recent = new WeakMap<Store, { at: number; reachable: Promise<boolean> }>();

/** Whether the table answers a read: what /healthz reports, since every tool needs it. */
export function storeReachable(store: Store, now = Date.now()): Promise<boolean> {
  const last = recent.get(store);
  if (last && now - last.at < PROBE_REUSE_MS) return last.reachable;
  const reachable = store.doc
    .send(new GetCommand({ TableName: store.tableName, Key: HEALTH_PROBE_KEY, ProjectionExpression: 'PK' }), { abortSignal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
    .then(
      () => true,
      () => false,
    );
  recent.set(store, { at: now, reachable });
  return reachable;
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => [
  {
    name: 'Health probe',
    entity: ENTITY.healthProbe,
    operation: 'GetItem',
    index: 'table',
    key: HEALTH_PROBE_KEY,
    usedBy: ['/healthz'],
    notes: 'An item no one writes; the read proves the table answers. One probe serves every check for a second.',
  },
]);
