import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { declareAccessPatterns, param } from '../shared/store/access-patterns.js';
import { deleteAll } from '../shared/store/batch-writes.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { queryAll } from '../shared/store/query-all.js';
import { ENTITY, oauthKeys } from '../shared/store/keys.js';

/** Models whose artifacts belong to a grant: revoking the grant removes them. */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

const hashOf = (id: string) => createHash('sha256').update(id).digest('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);
const expired = (item: Record<string, unknown>) => typeof item.expiresAt === 'number' && item.expiresAt <= nowSeconds();

/**
 * oidc-provider's storage interface on the single table (access patterns below). The payload is kept as JSON text: oidc-provider owns its shape
 * and adds fields between versions, and DynamoDB types never change it on the way back.
 */
export class OAuthStore implements Adapter {
  constructor(
    private readonly store: Store,
    private readonly model: string,
  ) {}

  /** One adapter per model, all on the same table: what `adapter` in the provider configuration wants. */
  static factory(store: Store): (model: string) => OAuthStore {
    return (model) => new OAuthStore(store, model);
  }

  /** `expiresIn` is absent for what never expires (a registered client). */
  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const idHash = hashOf(id);
    const expiry = typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? { expiresAt: nowSeconds() + expiresIn, ttl: nowSeconds() + expiresIn } : {};
    const grantId = GRANTABLE.has(this.model) ? payload.grantId : undefined;
    await this.store.doc.send(
      new PutCommand({
        TableName: this.store.tableName,
        Item: {
          ...oauthKeys.artifact(this.model, idHash),
          ...(grantId ? oauthKeys.byGrant(hashOf(grantId), this.model, idHash) : {}),
          entity: ENTITY.oauthArtifact,
          model: this.model,
          payload: JSON.stringify(payload),
          ...expiry,
        },
      }),
    );
    if (this.model === 'Session' && payload.uid) {
      await this.store.doc.send(
        new PutCommand({
          TableName: this.store.tableName,
          Item: { ...oauthKeys.sessionUid(hashOf(payload.uid)), entity: ENTITY.oauthSessionUid, sessionId: id, ...expiry },
        }),
      );
    }
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const result = await this.store.doc.send(new GetCommand({ TableName: this.store.tableName, Key: oauthKeys.artifact(this.model, hashOf(id)) }));
    const item = result.Item;
    // TTL deletes lazily (within days): an expired item must read as gone.
    if (!item || expired(item)) return undefined;
    const payload = JSON.parse(String(item.payload)) as AdapterPayload;
    return item.consumed ? { ...payload, consumed: Number(item.consumed) } : payload;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const result = await this.store.doc.send(new GetCommand({ TableName: this.store.tableName, Key: oauthKeys.sessionUid(hashOf(uid)) }));
    const item = result.Item;
    if (!item || expired(item)) return undefined;
    return this.find(String(item.sessionId));
  }

  /** Device flow is not enabled; nothing is stored by user code. */
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    await this.store.doc.send(
      new UpdateCommand({
        TableName: this.store.tableName,
        Key: oauthKeys.artifact(this.model, hashOf(id)),
        UpdateExpression: 'SET #consumed = :now',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#consumed': 'consumed' },
        ExpressionAttributeValues: { ':now': nowSeconds() },
      }),
    );
  }

  async destroy(id: string): Promise<void> {
    await this.store.doc.send(new DeleteCommand({ TableName: this.store.tableName, Key: oauthKeys.artifact(this.model, hashOf(id)) }));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const keys = await queryAll(this.store, {
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :grant',
      ExpressionAttributeValues: { ':grant': oauthKeys.grantIndex(hashOf(grantId)) },
      ProjectionExpression: 'PK, SK',
    });
    await deleteAll(this.store, keys);
  }
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const ARTIFACT = oauthKeys.artifact(param('model'), param('sha256(id)'));
  return [
    {
      name: 'Store an authorization-server artifact (client, grant, code, refresh token, session, interaction)',
      entity: ENTITY.oauthArtifact,
      operation: 'PutItem',
      index: 'table',
      key: ARTIFACT,
      usedBy: ['/oauth/* (authorization, token, registration, sign-in and consent)'],
      notes: 'Upsert; ttl = expiry when it has one. What a grant issued (codes, refresh tokens, access tokens) also sits in GSI1 under the grant.',
    },
    {
      name: 'An authorization-server artifact by id',
      entity: ENTITY.oauthArtifact,
      operation: 'GetItem',
      index: 'table',
      key: ARTIFACT,
      usedBy: ['/oauth/* (authorization, token, registration, revocation, sign-in and consent)'],
      notes: 'Reads ignore an expired item TTL has not reclaimed yet.',
    },
    {
      name: 'Mark an artifact consumed (a code or a rotated refresh token)',
      entity: ENTITY.oauthArtifact,
      operation: 'UpdateItem',
      index: 'table',
      key: ARTIFACT,
      usedBy: ['/oauth/token'],
      notes: 'Condition attribute_exists(PK).',
    },
    {
      name: 'Remove an artifact',
      entity: ENTITY.oauthArtifact,
      operation: 'DeleteItem',
      index: 'table',
      key: ARTIFACT,
      usedBy: ['/oauth/* (sign-out, finished interactions, revocation)'],
    },
    {
      name: 'Point a browser session uid at its session',
      entity: ENTITY.oauthSessionUid,
      operation: 'PutItem',
      index: 'table',
      key: oauthKeys.sessionUid(param('sha256(uid)')),
      usedBy: ['/oauth/authorize', '/oauth/interaction/*'],
      notes: 'Written beside the session artifact, with its expiry.',
    },
    {
      name: 'A browser session by the uid in its cookie',
      entity: ENTITY.oauthSessionUid,
      operation: 'GetItem',
      index: 'table',
      key: oauthKeys.sessionUid(param('sha256(uid)')),
      usedBy: ['/oauth/authorize', '/oauth/interaction/*'],
      notes: 'Then the session artifact itself, by id.',
    },
    {
      name: 'Everything one grant issued (revocation)',
      entity: ENTITY.oauthArtifact,
      operation: 'Query',
      index: 'GSI1',
      key: { GSI1PK: oauthKeys.grantIndex(param('sha256(grantId)')) },
      usedBy: ['/oauth/revoke', '/oauth/token (refresh token reuse revokes the chain)'],
      notes: 'ProjectionExpression PK, SK; codes, refresh tokens and opaque access tokens carry the grant.',
    },
    {
      name: 'Delete what a grant issued',
      entity: ENTITY.oauthArtifact,
      operation: 'BatchWriteItem',
      index: 'table',
      key: ARTIFACT,
      usedBy: ['/oauth/revoke', '/oauth/token (refresh token reuse revokes the chain)'],
      notes: 'DeleteRequests, 25 a batch, unprocessed ones retried.',
    },
  ];
});
