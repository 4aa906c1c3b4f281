import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { forgetGrant } from '../platform/auth/grant-store.js';
import { declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import { deleteAll } from '../platform/store/batch-writes.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { queryAll } from '../platform/store/query-all.js';
import { ENTITY, oauthKeys } from '../platform/store/keys.js';

/** Models whose artifacts belong to a grant: revoking the grant removes them. */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

/** Models consumed once (a code, a rotated refresh token): a second use is a replay. */
const SINGLE_USE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

/**
 * A registered client that never completes a sign-in is gone after a day; one that does lives on for
 * CLIENT_IN_USE_SECONDS past its last token (extended by `touchClient`). Registration is open, so what
 * it stores must not pile up.
 */
const UNUSED_CLIENT_SECONDS = 24 * 60 * 60;

export const hashOf = (id: string) => createHash('sha256').update(id).digest('base64url');
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
    if (this.model === 'Client' && expiresIn === undefined) expiresIn = UNUSED_CLIENT_SECONDS;
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

  /**
   * Marks a code or refresh token used, on condition it was not: of any number of concurrent requests
   * presenting it, exactly one consumes it. Every other one is a replay, and a replay (concurrent or
   * not) revokes the whole grant it came from (its codes, refresh tokens and the grant itself, which
   * access tokens are checked against) before it is refused as invalid_grant.
   */
  async consume(id: string): Promise<void> {
    try {
      await this.store.doc.send(
        new UpdateCommand({
          TableName: this.store.tableName,
          Key: oauthKeys.artifact(this.model, hashOf(id)),
          UpdateExpression: 'SET #consumed = :now',
          ConditionExpression: SINGLE_USE.has(this.model) ? 'attribute_exists(PK) AND attribute_not_exists(#consumed)' : 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#consumed': 'consumed' },
          ExpressionAttributeValues: { ':now': nowSeconds() },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException) || !SINGLE_USE.has(this.model)) throw error;
      const grantId = (await this.findEvenConsumed(id))?.grantId;
      if (grantId) await revokeGrant(this.store, String(grantId));
      throw new errors.InvalidGrant(`${this.model === 'RefreshToken' ? 'refresh token' : 'grant'} already used`);
    }
  }

  async destroy(id: string): Promise<void> {
    await this.store.doc.send(new DeleteCommand({ TableName: this.store.tableName, Key: oauthKeys.artifact(this.model, hashOf(id)) }));
    if (this.model === 'Grant') forgetGrant(hashOf(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await revokeIssued(this.store, grantId);
  }

  private async findEvenConsumed(id: string): Promise<AdapterPayload | undefined> {
    const result = await this.store.doc.send(new GetCommand({ TableName: this.store.tableName, Key: oauthKeys.artifact(this.model, hashOf(id)), ConsistentRead: true }));
    return result.Item ? (JSON.parse(String(result.Item.payload)) as AdapterPayload) : undefined;
  }
}

/** Everything a grant issued (codes, refresh tokens, stored access tokens), found by the grant in GSI1. */
async function revokeIssued(store: Store, grantId: string): Promise<void> {
  const keys = await queryAll(store, {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :grant',
    ExpressionAttributeValues: { ':grant': oauthKeys.grantIndex(hashOf(grantId)) },
    ProjectionExpression: 'PK, SK',
  });
  await deleteAll(store, keys);
}

/** A grant and all it issued: its JWT access tokens stop passing the resource server's grant check too. */
async function revokeGrant(store: Store, grantId: string): Promise<void> {
  await revokeIssued(store, grantId);
  await store.doc.send(new DeleteCommand({ TableName: store.tableName, Key: oauthKeys.artifact('Grant', hashOf(grantId)) }));
  forgetGrant(hashOf(grantId));
}

/** A client that just obtained tokens stays registered for this long past now (UNUSED_CLIENT_SECONDS otherwise). */
export async function touchClient(store: Store, clientId: string, seconds: number): Promise<void> {
  const at = nowSeconds() + seconds;
  await store.doc
    .send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: oauthKeys.artifact('Client', hashOf(clientId)),
        UpdateExpression: 'SET expiresAt = :at, #ttl = :at',
        ConditionExpression: 'attribute_exists(PK) AND expiresAt < :at',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':at': at },
      }),
    )
    .catch((error: unknown) => {
      // Not a stored client (a metadata document's), or already extended further.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    });
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
      notes: 'Reads ignore an expired item TTL has not reclaimed yet. Registered clients expire a day after registration unless they obtain tokens.',
    },
    {
      name: 'Mark an artifact consumed (a code or a rotated refresh token)',
      entity: ENTITY.oauthArtifact,
      operation: 'UpdateItem',
      index: 'table',
      key: ARTIFACT,
      usedBy: ['/oauth/token'],
      notes:
        'Condition attribute_exists(PK) AND attribute_not_exists(consumed): one of any number of concurrent uses wins; the others (replays) revoke the grant. Also: SET expiresAt, ttl of a registered client that obtained tokens (condition expiresAt < :new).',
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
