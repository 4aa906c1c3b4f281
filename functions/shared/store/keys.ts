/**
 * Every key the application writes or queries is built here. ACCESS_PATTERNS lists each query a
 * tool makes with its key condition; docs/access-patterns.md is generated from it.
 */

export const ENTITY = {
  byokCredential: 'ByokCredential',
  preferences: 'Preferences',
  subscription: 'Subscription',
  quotaCounter: 'QuotaCounter',
  personalAccessToken: 'PersonalAccessToken',
} as const;

export const userPk = (userId: string) => `USER#${userId}`;

export const keys = {
  byokCredential: (userId: string, credentialId: string) => ({ PK: userPk(userId), SK: `BYOK#${credentialId}` }),
  byokPrefix: 'BYOK#',
  preferences: (userId: string) => ({ PK: userPk(userId), SK: 'PREFERENCES' }),
  subscription: (userId: string) => ({ PK: userPk(userId), SK: 'SUBSCRIPTION' }),
  quotaCounter: (userId: string, kind: string, windowKey: string) => ({
    PK: userPk(userId),
    SK: `QUOTA#${kind}#${windowKey}`,
  }),
  /** Sort-key prefix of a user's counters, optionally narrowed to `<kind>#<windowKey>`. */
  quotaCounterPrefix: (narrowTo = '') => `QUOTA#${narrowTo}`,
  personalAccessToken: (tokenHash: string) => ({ PK: `PAT#${tokenHash}`, SK: 'PAT' }),
  personalAccessTokenByUser: (userId: string, createdAt: string) => ({ GSI1PK: userPk(userId), GSI1SK: `PAT#${createdAt}` }),
};

export interface AccessPattern {
  name: string;
  usedBy: string[];
  operation: 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'Query' | 'TransactWriteItems';
  index: 'table' | 'GSI1' | 'GSI2';
  keyCondition: string;
  notes?: string;
}

export const ACCESS_PATTERNS: AccessPattern[] = [
  {
    name: 'List a user\'s BYOK credentials',
    usedBy: ['tn_user_byok_list', 'tn_user_byok_add'],
    operation: 'Query',
    index: 'table',
    keyCondition: 'PK = USER#<userId> AND begins_with(SK, "BYOK#")',
    notes: 'Paginated with ExclusiveStartKey carried in the signed cursor; add counts to enforce the per-user maximum.',
  },
  {
    name: 'Add a BYOK credential',
    usedBy: ['tn_user_byok_add'],
    operation: 'PutItem',
    index: 'table',
    keyCondition: 'PK = USER#<userId>, SK = BYOK#<credentialId>',
    notes: 'Condition attribute_not_exists(PK): a ULID collision can never overwrite a key.',
  },
  {
    name: 'Delete a BYOK credential (and clear it as default)',
    usedBy: ['tn_user_byok_delete'],
    operation: 'TransactWriteItems',
    index: 'table',
    keyCondition: 'PK = USER#<userId>, SK = BYOK#<credentialId>; PK = USER#<userId>, SK = PREFERENCES',
    notes: 'Delete conditioned on attribute_exists(PK): a second delete is NOT_FOUND.',
  },
  {
    name: 'Get preferences',
    usedBy: ['tn_user_preferences_get', 'tn_user_preferences_set'],
    operation: 'GetItem',
    index: 'table',
    keyCondition: 'PK = USER#<userId>, SK = PREFERENCES',
  },
  {
    name: 'Merge preferences',
    usedBy: ['tn_user_preferences_set'],
    operation: 'UpdateItem',
    index: 'table',
    keyCondition: 'PK = USER#<userId>, SK = PREFERENCES',
    notes: 'SET for given fields, REMOVE for null ones; fields not named are untouched.',
  },
  {
    name: 'Get a BYOK credential (default-credential check)',
    usedBy: ['tn_user_preferences_set'],
    operation: 'GetItem',
    index: 'table',
    keyCondition: 'PK = USER#<userId>, SK = BYOK#<credentialId>',
  },
  {
    name: 'Get subscription',
    usedBy: ['tn_user_subscription', 'tn_user_quota'],
    operation: 'GetItem',
    index: 'table',
    keyCondition: 'PK = USER#<userId>, SK = SUBSCRIPTION',
  },
  {
    name: 'Set subscription plan (CLI)',
    usedBy: ['tn plan set'],
    operation: 'PutItem',
    index: 'table',
    keyCondition: 'PK = USER#<userId>, SK = SUBSCRIPTION',
  },
  {
    name: 'Read quota counters of the current windows',
    usedBy: ['tn_user_quota'],
    operation: 'Query',
    index: 'table',
    keyCondition: 'PK = USER#<userId> AND begins_with(SK, "QUOTA#")',
    notes: 'Expired windows are filtered out in code and reclaimed by TTL.',
  },
  {
    name: 'Consume one unit of a quota window',
    usedBy: ['rate-limited tools', 'tn_session_ask'],
    operation: 'UpdateItem',
    index: 'table',
    keyCondition: 'PK = USER#<userId>, SK = QUOTA#<kind>#<windowKey>',
    notes: 'ADD count :1 with condition attribute_not_exists(count) OR count < :max; fails at the limit.',
  },
  {
    name: 'Resolve a personal access token',
    usedBy: ['every authenticated request bearing a PAT'],
    operation: 'GetItem',
    index: 'table',
    keyCondition: 'PK = PAT#<sha256(token)>, SK = PAT',
  },
  {
    name: 'List a user\'s personal access tokens',
    usedBy: ['tn token list'],
    operation: 'Query',
    index: 'GSI1',
    keyCondition: 'GSI1PK = USER#<userId> AND begins_with(GSI1SK, "PAT#")',
  },
];
