/**
 * Each query or write a tool makes, with its key condition (ElectroDB-style access-pattern table);
 * docs/access-patterns.md is generated from this list. Keys themselves are built in keys.ts.
 */

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
    name: 'Everything about one course (fragments, offerings, sections, grades, materials)',
    usedBy: ['tn_course_get', 'tn_course_prereqs', 'tn_course_requisites', 'tn_course_outline', 'tn_course_instructor', 'tn_course_schedule', 'tn_course_section_list', 'tn_course_section_get', 'tn_course_grades', 'tn_course_materials'],
    operation: 'Query',
    index: 'table',
    keyCondition: 'PK = COURSE#<institution>#<code>',
    notes: 'One round trip; retired records are filtered in code. Results are cached in the warm function per catalog version.',
  },
  {
    name: 'An institution\'s course fragments',
    usedBy: ['tn_course_search (index build)', 'tn_course_similar', 'tn_course_get (close matches)'],
    operation: 'Query',
    index: 'GSI1',
    keyCondition: 'GSI1PK = CATALOG#<institution>',
    notes: 'Read once per warm process and catalog version to build the in-memory search index.',
  },
  {
    name: 'Institutions with per-source freshness',
    usedBy: ['tn_course_institutions', 'tn_course_search (index build)'],
    operation: 'Query',
    index: 'table',
    keyCondition: 'PK = INSTITUTIONS AND begins_with(SK, "INST#")',
  },
  {
    name: 'Catalog version',
    usedBy: ['cached course tools (cache invalidation)'],
    operation: 'GetItem',
    index: 'table',
    keyCondition: 'PK = CATALOG, SK = VERSION',
    notes: 'Bumped by every ingestion run that changed something.',
  },
  {
    name: 'Transfer rules concerning one course (both directions)',
    usedBy: ['tn_course_equivalent_elsewhere'],
    operation: 'Query',
    index: 'table',
    keyCondition: 'PK = COURSE#<institution>#<code> AND begins_with(SK, "transfer#")',
    notes: 'Part of the same one-Query course read; each listing carries the rule summary, the rule itself is stored once.',
  },
  {
    name: 'A transfer rule by id',
    usedBy: ['transfer ingestion (dedup)'],
    operation: 'GetItem',
    index: 'table',
    keyCondition: 'PK = RULE#<ruleId>, SK = RULE',
  },
  {
    name: 'Rules of an institution pair',
    usedBy: ['transfer tools (next issue)'],
    operation: 'Query',
    index: 'GSI1',
    keyCondition: 'GSI1PK = TRANSFER#<sender>#<receiver> AND begins_with(GSI1SK, "<SUBJ NUM>")',
  },
  {
    name: 'What a source owns within a scope',
    usedBy: ['ingestion'],
    operation: 'Query',
    index: 'GSI2',
    keyCondition: 'GSI2PK = SOURCE#<source>#<scope>',
    notes: 'Content hashes decide skip / update; records not seen again are retired, never deleted.',
  },
  {
    name: 'Ingestion runs, quarantined records and conditional-GET state of a source',
    usedBy: ['ingestion', 'npm run ingest'],
    operation: 'Query',
    index: 'table',
    keyCondition: 'PK = INGEST#<source> AND begins_with(SK, "RUN#" | "QUARANTINE#<runId>" | "STATE#")',
  },
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
