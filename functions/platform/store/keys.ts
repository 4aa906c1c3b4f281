/**
 * Every key the application writes or queries is built here. Store modules declare their access
 * patterns with these same builders (called with params, see access-patterns.ts), so the declared
 * key shapes and docs/access-patterns.md follow any change made here.
 */

export const ENTITY = {
  byokCredential: 'ByokCredential',
  preferences: 'Preferences',
  subscription: 'Subscription',
  quotaCounter: 'QuotaCounter',
  personalAccessToken: 'PersonalAccessToken',
  courseRecords: 'CourseRecords',
  courseTransfers: 'CourseTransfers',
  institution: 'Institution',
  ingestionRun: 'IngestionRun',
  sourceLease: 'SourceLease',
  quarantinedRecord: 'QuarantinedRecord',
  sourceState: 'SourceState',
  crawlState: 'CrawlState',
  crawlPages: 'CrawlPages',
  crawlRun: 'CrawlRun',
  catalogVersion: 'CatalogVersion',
  sampleCatalogMarker: 'SampleCatalogMarker',
  termsOffered: 'TermsOffered',
  searchIndexPart: 'SearchIndexPart',
  requiredByPart: 'RequiredByPart',
  transferRule: 'TransferRule',
  session: 'Session',
  sessionEvent: 'SessionEvent',
  sessionRequest: 'SessionRequest',
  pendingDraft: 'PendingDraft',
  deviceCursor: 'DeviceCursor',
  oauthArtifact: 'OAuthArtifact',
  oauthSessionUid: 'OAuthSessionUid',
  healthProbe: 'HealthProbe',
} as const;

export const userPk = (userId: string) => `USER#${userId}`;

/** An item no one writes: /healthz reads it to prove the table answers. */
export const HEALTH_PROBE_KEY = { PK: 'HEALTH', SK: 'HEALTH' } as const;

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

/**
 * Catalog keys (ADR 0042). A course is an item collection: its partition holds one aggregate item per
 * source and scope (a source's fragment and offerings, a term's sections, a session's grades, a manifest's
 * materials) and the transfer rules it sends and receives, so a course page is one Query of its own items.
 * Each aggregate is owned by one source (GSI2, listed per owner scope with only its hash) and written whole.
 */
export const catalogKeys = {
  coursePartition: (institution: string, code: string) => `COURSE#${institution}#${code}`,
  /** The course a partition key names (`COURSE#sfu#CMPT 225`), or undefined for any other partition. */
  courseOfPartition: (pk: string): { institution: string; code: string } | undefined => {
    const match = /^COURSE#([^#]+)#(.+)$/.exec(pk);
    return match ? { institution: match[1]!, code: match[2]! } : undefined;
  },
  /** What one source says of a course within one of its scopes, in one item. */
  courseRecords: (institution: string, code: string, source: string, scope: string) => ({
    PK: catalogKeys.coursePartition(institution, code),
    SK: `${catalogKeys.courseRecordsPrefix}${source}#${scope}`,
  }),
  courseRecordsPrefix: 'records#',
  /**
   * Every rule a sending course is listed in, towards every receiver, history included: the transfer
   * index, read by key for a resolve (one BatchGetItem for up to 100 courses) and with the course page.
   */
  courseTransfersOut: (institution: string, code: string, source: string) => ({
    PK: catalogKeys.coursePartition(institution, code),
    SK: `${catalogKeys.transfersOutPrefix}${source}`,
  }),
  transfersOutPrefix: 'transfers-out#',
  /** Every rule of one sender that can award a receiving course (or generic credit keyed like one): reverse lookup. */
  courseTransfersIn: (institution: string, code: string, sender: string, source: string) => ({
    PK: catalogKeys.coursePartition(institution, code),
    SK: `${catalogKeys.transfersInPrefix(sender)}${source}`,
  }),
  /** The sort-key prefix of a course's incoming rules, from one sender or from all. */
  transfersInPrefix: (sender?: string) => `transfers-in#${sender === undefined ? '' : `${sender}#`}`,
  /** GSI1 lists an institution's course fragments (the search index build), one entry per source and scope. */
  byInstitution: (institution: string, code: string, source: string, scope: string) => ({ GSI1PK: catalogKeys.institutionCatalog(institution), GSI1SK: `${code}#${source}#${scope}` }),
  institutionCatalog: (institution: string) => `CATALOG#${institution}`,
  /** GSI2 lists what one source owns within one scope, with each item's hash only: a re-run skips what is unchanged. */
  bySource: (source: string, scope: string) => ({ GSI2PK: ownership(source, scope) }),
  sourceScope: (source: string, scope: string) => ownership(source, scope),
  institution: (id: string) => ({ PK: 'INSTITUTIONS', SK: `INST#${id}` }),
  /** How fresh one source's data about an institution is, beside the institution's own item. */
  institutionSource: (id: string, source: string) => ({ PK: 'INSTITUTIONS', SK: `INST#${id}#SOURCE#${source}` }),
  institutionsPartition: 'INSTITUTIONS',
  institutionPrefix: 'INST#',
  /** A source's runs, quarantined records, conditional-GET state and the lease that keeps its runs apart. */
  ingestPartition: (source: string) => `INGEST#${source}`,
  ingestionRun: (source: string, runId: string) => ({ PK: catalogKeys.ingestPartition(source), SK: `RUN#${runId}` }),
  ingestionRunPrefix: 'RUN#',
  /** Held by the one run of a source that may write (conditional write, with an expiry). */
  sourceLease: (source: string) => ({ PK: catalogKeys.ingestPartition(source), SK: 'LEASE' }),
  quarantined: (source: string, runId: string, index: number) => ({
    PK: catalogKeys.ingestPartition(source),
    SK: `${catalogKeys.quarantinePrefix(runId)}${String(index).padStart(6, '0')}`,
  }),
  quarantinePrefix: (runId: string) => `QUARANTINE#${runId}#`,
  sourceState: (source: string, originHash: string) => ({ PK: catalogKeys.ingestPartition(source), SK: `STATE#${originHash}` }),
  /** A transfer rule, by id: its details, and (GSI1) its place in its institution pair's listing. */
  transferRule: (ruleId: string) => ({ PK: `RULE#${ruleId}`, SK: 'RULE' }),
  /** GSI1 lists an institution pair's rules (tn_transfer_search). */
  transferPair: (sender: string, receiver: string) => `TRANSFER#${sender}#${receiver}`,
  /** A rule's place in its pair's GSI1 listing: by first sending course, then start date. */
  pairRule: (sender: string, receiver: string, firstCode: string, effectiveStart: string, ruleId: string) => ({
    GSI1PK: catalogKeys.transferPair(sender, receiver),
    GSI1SK: `${firstCode}#${effectiveStart}#${ruleId}`,
  }),
  /** GSI1SK prefix of a pair's rules whose first sending course is `code`. */
  pairCoursePrefix: (code: string) => `${code}#`,
  /** GSI1SK prefix of a pair's rules whose first sending course is in `subject` (codes are "SUBJ NUM"). */
  pairSubjectPrefix: (subject: string) => `${subject} `,
  /** The catalog version (bumped by every run that changed something) and the storage format the table holds. */
  catalogVersion: { PK: 'CATALOG', SK: 'VERSION' },
  /** Which courses of an institution a source lists in a term (sections, offerings): the search's term filter. */
  termsOfferedPartition: (institution: string) => `TERMS#${institution}`,
  termsOffered: (institution: string, source: string, scope: string, term: string) => ({ PK: `TERMS#${institution}`, SK: `${source}#${scope}#${term}` }),
  /** One marker per shipped sample file, so a newer release loads only the files it added. */
  sampleCatalogMarkerPartition: 'CATALOG',
  sampleCatalogMarkerPrefix: 'SAMPLE#',
  sampleCatalogMarker: (file: string) => ({ PK: 'CATALOG', SK: `SAMPLE#${file}` }),
  /** The search index of one catalog version, stored as a manifest and gzip parts under 400 KB each. */
  searchIndexManifest: (version: number | string) => ({ PK: `SEARCH-INDEX#${version}`, SK: 'MANIFEST' }),
  searchIndexPart: (version: number | string, part: number | string) => ({ PK: `SEARCH-INDEX#${version}`, SK: `PART#${typeof part === 'number' ? String(part).padStart(5, '0') : part}` }),
  /** Which courses name each course of an institution as a requisite ("leads to"), per catalog version. */
  requiredByPartition: (version: number | string) => `REQUIRED-BY#${version}`,
  requiredByPart: (version: number | string, institution: string, part: number | string) => ({
    PK: `REQUIRED-BY#${version}`,
    SK: `${institution}#${typeof part === 'number' ? String(part).padStart(3, '0') : part}`,
  }),
};

/**
 * A crawled source's own bookkeeping, beside its runs in `INGEST#<source>`: one state item (the lease that
 * keeps two crawls of the source apart, each crawl's checkpoint, how fresh each part is), what the pages
 * of each part answered last time, and a record per crawl run.
 */
export const crawlKeys = {
  state: (source: string) => ({ PK: catalogKeys.ingestPartition(source), SK: 'CRAWL' }),
  pages: (source: string, group: string) => ({ PK: catalogKeys.ingestPartition(source), SK: `CRAWL-PAGES#${group}` }),
  run: (source: string, runId: string) => ({ PK: catalogKeys.ingestPartition(source), SK: `${crawlKeys.runPrefix}${runId}` }),
  runPrefix: 'CRAWL-RUN#',
};

function ownership(source: string, scope: string): string {
  return `SOURCE#${source}#${scope}`;
}

/**
 * A tutoring session's partition holds everything about it, so one Query reads it and TTL reclaims it:
 * META (owner, context, lastSeq, expiry), EVENT#<seq> (the append-only log, seq zero-padded so the sort
 * key orders numerically), REQUEST#<clientEventId> (idempotency record of an ask), DRAFT#<clientEventId>
 * (a pending draft, deleted when it is sent or cancelled) and DEVICE#<deviceId> (what a device has seen).
 */
export const sessionKeys = {
  partition: (sessionId: string) => `SESSION#${sessionId}`,
  meta: (sessionId: string) => ({ PK: sessionKeys.partition(sessionId), SK: 'META' }),
  event: (sessionId: string, seq: number) => ({ PK: sessionKeys.partition(sessionId), SK: sessionKeys.eventSk(seq) }),
  eventSk: (seq: number) => `EVENT#${String(seq).padStart(10, '0')}`,
  eventPrefix: 'EVENT#',
  request: (sessionId: string, clientEventId: string) => ({ PK: sessionKeys.partition(sessionId), SK: `REQUEST#${clientEventId}` }),
  draft: (sessionId: string, clientEventId: string) => ({ PK: sessionKeys.partition(sessionId), SK: `DRAFT#${clientEventId}` }),
  draftPrefix: 'DRAFT#',
  /** GSI1 lists a user's sessions by last activity, so a call without a sessionId finds the current one. */
  byOwner: (userId: string, lastActivityAt: string) => ({ GSI1PK: `${userPk(userId)}#SESSIONS`, GSI1SK: lastActivityAt }),
  ownerIndex: (userId: string) => `${userPk(userId)}#SESSIONS`,
  /** The last seq delivered to one device, so a polling client need not remember it. */
  device: (sessionId: string, deviceId: string) => ({ PK: sessionKeys.partition(sessionId), SK: `DEVICE#${deviceId}` }),
};

/** Quota owner of anonymous sessions: one pool the operator pays for (no user id can contain "~"). */
export const ANONYMOUS_QUOTA_OWNER = '~anonymous';

/**
 * Authorization-server state (oidc-provider models: clients, grants, codes, refresh tokens, sessions,
 * interactions). Ids are hashed into keys: a token's id is the token, and a leaked table must not
 * yield usable tokens. GSI1 groups what one grant issued, so revoking a grant revokes them all.
 */
export const oauthKeys = {
  artifact: (model: string, idHash: string) => ({ PK: `OAUTH#${model}#${idHash}`, SK: 'OAUTH' }),
  byGrant: (grantIdHash: string, model: string, idHash: string) => ({ GSI1PK: oauthKeys.grantIndex(grantIdHash), GSI1SK: `${model}#${idHash}` }),
  grantIndex: (grantIdHash: string) => `OAUTH-GRANT#${grantIdHash}`,
  /** A browser session is found by the uid in its cookie as well as by its id. */
  sessionUid: (uidHash: string) => ({ PK: `OAUTH-SESSION-UID#${uidHash}`, SK: 'OAUTH' }),
};
