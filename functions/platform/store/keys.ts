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
  catalogRecord: 'CatalogRecord',
  catalogPack: 'CatalogPack',
  institution: 'Institution',
  ingestionRun: 'IngestionRun',
  quarantinedRecord: 'QuarantinedRecord',
  sourceState: 'SourceState',
  sourceLayout: 'SourceLayout',
  crawlState: 'CrawlState',
  crawlPages: 'CrawlPages',
  crawlRun: 'CrawlRun',
  catalogVersion: 'CatalogVersion',
  sampleCatalogMarker: 'SampleCatalogMarker',
  termsOffered: 'TermsOffered',
  searchIndexPart: 'SearchIndexPart',
  requiredByPart: 'RequiredByPart',
  transferRule: 'TransferRule',
  transferIndex: 'TransferIndex',
  transferListing: 'TransferListing',
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

/** `CMPT` of `CMPT 225`: codes are stored canonical, subject and number split by one space. */
const courseSubject = (code: string) => code.split(' ')[0]!;
/** `2` of `CMPT 225`: the first character of the number, its level at every institution we hold. */
const courseLevel = (code: string) => code.split(' ')[1]?.[0] ?? '';

/**
 * Catalog keys: one partition per course holds what is stored about it item by item (materials, transfer
 * listings, records stored before packs); its packed records live in its subject level's partition, and
 * the course read queries both at once.
 */
export const catalogKeys = {
  coursePartition: (institution: string, code: string) => `COURSE#${institution}#${code}`,
  record: (institution: string, code: string, recordId: string) => ({
    PK: catalogKeys.coursePartition(institution, code),
    SK: recordId,
  }),
  /**
   * One item holding many records that are always read by course (a source's fragments and offerings,
   * a term's sections, a campus's grade rows): DynamoDB Local writes items, not bytes, one at a time.
   */
  recordPack: (kind: string, source: string, scope: string) => `${catalogKeys.recordPackPrefix}${kind}#${source}#${scope}`,
  /**
   * Where a course's packs live: one partition per institution, subject and level (`CMPT` 2xx for
   * `CMPT 225`), so a source writes one pack per subject level rather than one per course, each row
   * keeping its course's partition (ADR 0023). Read beside the course partition, projecting the
   * course's own rows; the level keeps what a read goes through to a fraction of the subject.
   */
  subjectLevelPartition: (institution: string, subject: string, level: string) => `SUBJECT#${institution}#${subject}#${level}`,
  coursePackPartition: (institution: string, code: string) => catalogKeys.subjectLevelPartition(institution, courseSubject(code), courseLevel(code)),
  recordPackPrefix: 'pack#',
  /** GSI1 listed an institution's course fragments one by one before they were packed; such items are still read. */
  byInstitution: (institution: string, code: string, source: string) => ({ GSI1PK: `CATALOG#${institution}`, GSI1SK: `${code}#${source}` }),
  institutionCatalog: (institution: string) => `CATALOG#${institution}`,
  /** GSI1 lists a subject level's packs of course fragments beside fragments stored as items before packs. */
  byInstitutionPack: (institution: string, code: string, source: string) => ({ GSI1PK: `CATALOG#${institution}`, GSI1SK: `${courseSubject(code)}#${source}#pack` }),
  /** GSI2 lists what one source owns within one scope, so a re-run can skip, update or retire exactly its records. */
  bySource: (source: string, scope: string, pk: string, sk: string) => ({ GSI2PK: ownership(source, scope), GSI2SK: `${pk}|${sk}` }),
  sourceScope: (source: string, scope: string) => ownership(source, scope),
  institution: (id: string) => ({ PK: 'INSTITUTIONS', SK: `INST#${id}` }),
  /** How fresh one source's data about an institution is, beside the institution's own item. */
  institutionSource: (id: string, source: string) => ({ PK: 'INSTITUTIONS', SK: `INST#${id}#SOURCE#${source}` }),
  institutionsPartition: 'INSTITUTIONS',
  institutionPrefix: 'INST#',
  /** A source's runs, quarantined records and conditional-GET state. */
  ingestPartition: (source: string) => `INGEST#${source}`,
  ingestionRun: (source: string, runId: string) => ({ PK: catalogKeys.ingestPartition(source), SK: `RUN#${runId}` }),
  ingestionRunPrefix: 'RUN#',
  /** Whether a source has ever stored rows as items of their own (not in packs): its runs then read every fine scope. */
  sourceLayout: (source: string) => ({ PK: catalogKeys.ingestPartition(source), SK: 'LAYOUT' }),
  quarantined: (source: string, runId: string, index: number) => ({
    PK: catalogKeys.ingestPartition(source),
    SK: `${catalogKeys.quarantinePrefix(runId)}${String(index).padStart(6, '0')}`,
  }),
  quarantinePrefix: (runId: string) => `QUARANTINE#${runId}#`,
  sourceState: (source: string, originHash: string) => ({ PK: catalogKeys.ingestPartition(source), SK: `STATE#${originHash}` }),
  /** A transfer rule, stored once however many courses it lists. */
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
  /** A rule's entry in a course's partition, in each direction it concerns that course. */
  courseTransfer: (institution: string, code: string, direction: 'outgoing' | 'incoming', other: string, ruleId: string) => ({
    PK: catalogKeys.coursePartition(institution, code),
    SK: `${catalogKeys.courseTransferPrefix(direction, other)}${ruleId}`,
  }),
  /**
   * The pack holding a sending course's outgoing listings towards every receiver (record-packs.ts): a
   * course listed towards 33 receivers is one item, not one per rule. Its key sorts among the listings.
   */
  outgoingListingPack: (source: string) => `${catalogKeys.courseTransferPrefix('outgoing')}*#${source}`,
  /** What every transfer listing's sort key starts with, whichever its direction. */
  transferListingPrefix: 'transfer#',
  /** Every active rule listing a sending course, towards every receiver, in one item: a resolve reads all it needs in one BatchGetItem. */
  transferIndex: (sender: string, code: string) => ({ PK: `TRANSFER-INDEX#${sender}#${code}`, SK: 'EVERY-RECEIVER' }),
  /** Present once a pair's rules are in its sender's transfer indexes: an absent index item then means "no rule", not "not built". */
  transferIndexMarker: (sender: string, receiver: string) => ({ PK: `TRANSFER#${sender}#${receiver}`, SK: 'INDEXED-BY-COURSE' }),
  /** Which receivers a sender's transfer indexes cover and which of its courses they were built for. */
  transferIndexManifest: (sender: string) => ({ PK: `TRANSFER-INDEX#${sender}`, SK: 'MANIFEST' }),
  /** The sort-key prefix of a course's transfer listings in one direction, towards one institution or all. */
  courseTransferPrefix: (direction: 'outgoing' | 'incoming', other?: string) => `${catalogKeys.transferListingPrefix}${direction}#${other ? `${other}#` : ''}`,
  catalogVersion: { PK: 'CATALOG', SK: 'VERSION' },
  /** One marker per shipped sample file, so a newer release loads only the files it added. */
  /** Which courses of an institution a source lists in a term (sections, offerings): the search's term filter. */
  termsOfferedPartition: (institution: string) => `TERMS#${institution}`,
  termsOffered: (institution: string, source: string, scope: string, term: string) => ({ PK: `TERMS#${institution}`, SK: `${source}#${scope}#${term}` }),
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
