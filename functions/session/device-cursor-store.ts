import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { ENTITY, sessionKeys } from '../platform/store/keys.js';
import { epochSeconds } from './session-model.js';

/** The last seq this device was given (0 when it has seen nothing). */
export async function readDeviceCursor(store: Store, sessionId: string, deviceId: string): Promise<number> {
  const result = await store.doc.send(
    new GetCommand({ TableName: store.tableName, Key: sessionKeys.device(sessionId, deviceId), ConsistentRead: true }),
  );
  return Number(result.Item?.lastSeenSeq ?? 0);
}

/** Moves the device's cursor forward only: a slow, older poll can never make it re-see events. */
export async function advanceDeviceCursor(store: Store, args: { sessionId: string; deviceId: string; seq: number; now: Date; ttlAt: string }): Promise<void> {
  await store.doc
    .send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: sessionKeys.device(args.sessionId, args.deviceId),
        UpdateExpression: 'SET lastSeenSeq = :seq, seenAt = :now, entity = :entity, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(lastSeenSeq) OR lastSeenSeq < :seq',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':seq': args.seq, ':now': args.now.toISOString(), ':entity': ENTITY.deviceCursor, ':ttl': epochSeconds(args.ttlAt) },
      }),
    )
    .catch((error: unknown) => {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    });
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const DEVICE = sessionKeys.device(param('sessionId'), param('deviceId'));
  return [
    {
      name: 'What a device has seen',
      entity: ENTITY.deviceCursor,
      operation: 'GetItem',
      index: 'table',
      key: DEVICE,
      usedBy: ['tn_session_sync_status'],
      notes: 'Consistent read; no item means the device has seen nothing.',
    },
    {
      name: "Move a device's cursor forward",
      entity: ENTITY.deviceCursor,
      operation: 'UpdateItem',
      index: 'table',
      key: DEVICE,
      usedBy: ['tn_session_sync_status', 'tn_session_resume'],
      notes: 'lastSeenSeq only moves forward (condition lastSeenSeq < :seq): a slow, older poll never makes a device re-see events.',
    },
  ];
});
