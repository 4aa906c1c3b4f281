import * as catalogStore from './catalog/catalog-store.js';
import * as searchIndexStore from './catalog/search/search-index-store.js';
import * as requiredByStore from './catalog/required-by-store.js';
import * as ingestionRun from './catalog/ingestion/ingestion-run.js';
import * as institutionRegistry from './catalog/institution-registry.js';
import * as reconcile from './catalog/ingestion/reconcile.js';
import * as sourceLease from './catalog/ingestion/source-lease-store.js';
import * as crawlStore from './catalog/ingestion/crawl-store.js';
import * as oauthStore from './oauth/oauth-store.js';
import * as askRequestStore from './session/ask-request-store.js';
import * as deviceCursorStore from './session/device-cursor-store.js';
import * as eventLogStore from './session/event-log-store.js';
import * as sessionListStore from './session/session-list-store.js';
import * as sessionStore from './session/session-store.js';
import * as grantStore from './platform/auth/grant-store.js';
import * as personalAccessTokenStore from './platform/auth/personal-access-token-store.js';
import type { AccessPattern } from './platform/store/access-patterns.js';
import * as healthProbe from './platform/store/health-probe.js';
import * as quotaCounter from './platform/store/quota-counter.js';
import * as transferIndexStore from './transfer/transfer-index-store.js';
import * as transferStore from './transfer/transfer-store.js';
import * as userStore from './user/user-store.js';

/**
 * Every store module with the access patterns it declares, for the generated docs and the check that
 * the integration suite sends nothing undeclared. Lives beside all-contracts.ts: it may import every
 * domain, which the floors may not. test/unit/store-discipline.test.ts fails when a module that
 * sends commands is missing here.
 */
export const STORE_MODULES: { module: string; patterns: AccessPattern[] }[] = [
  { module: 'functions/session/session-store.ts', patterns: sessionStore.ACCESS_PATTERNS },
  { module: 'functions/session/session-list-store.ts', patterns: sessionListStore.ACCESS_PATTERNS },
  { module: 'functions/session/event-log-store.ts', patterns: eventLogStore.ACCESS_PATTERNS },
  { module: 'functions/session/ask-request-store.ts', patterns: askRequestStore.ACCESS_PATTERNS },
  { module: 'functions/session/device-cursor-store.ts', patterns: deviceCursorStore.ACCESS_PATTERNS },
  { module: 'functions/catalog/catalog-store.ts', patterns: catalogStore.ACCESS_PATTERNS },
  { module: 'functions/catalog/search/search-index-store.ts', patterns: searchIndexStore.ACCESS_PATTERNS },
  { module: 'functions/catalog/required-by-store.ts', patterns: requiredByStore.ACCESS_PATTERNS },
  { module: 'functions/catalog/institution-registry.ts', patterns: institutionRegistry.ACCESS_PATTERNS },
  { module: 'functions/catalog/ingestion/ingestion-run.ts', patterns: ingestionRun.ACCESS_PATTERNS },
  { module: 'functions/catalog/ingestion/reconcile.ts', patterns: reconcile.ACCESS_PATTERNS },
  { module: 'functions/catalog/ingestion/source-lease-store.ts', patterns: sourceLease.ACCESS_PATTERNS },
  { module: 'functions/catalog/ingestion/crawl-store.ts', patterns: crawlStore.ACCESS_PATTERNS },
  { module: 'functions/transfer/transfer-store.ts', patterns: transferStore.ACCESS_PATTERNS },
  { module: 'functions/transfer/transfer-index-store.ts', patterns: transferIndexStore.ACCESS_PATTERNS },
  { module: 'functions/user/user-store.ts', patterns: userStore.ACCESS_PATTERNS },
  { module: 'functions/platform/store/quota-counter.ts', patterns: quotaCounter.ACCESS_PATTERNS },
  { module: 'functions/platform/auth/personal-access-token-store.ts', patterns: personalAccessTokenStore.ACCESS_PATTERNS },
  { module: 'functions/oauth/oauth-store.ts', patterns: oauthStore.ACCESS_PATTERNS },
  { module: 'functions/platform/store/health-probe.ts', patterns: healthProbe.ACCESS_PATTERNS },
  { module: 'functions/platform/auth/grant-store.ts', patterns: grantStore.ACCESS_PATTERNS },
];

export const ALL_ACCESS_PATTERNS: AccessPattern[] = STORE_MODULES.flatMap((store) => store.patterns);
