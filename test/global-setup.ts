import type { TestProject } from 'vitest/node';
import { ALL_ACCESS_PATTERNS } from '../functions/all-access-patterns.js';
import { describeCommand, uncoveredCommands } from './support/store/access-pattern-matcher.js';
import { CommandRecorder } from './support/store/command-recorder.js';
import { createStore } from '../functions/platform/store/dynamo-client.js';
import { startDynamoDbLocal, type DynamoDbLocal } from '../local/dynamodb-local.js';
import { ensureTable } from '../local/ensure-table.js';
import { loadSampleCatalogOnce } from '../local/sample-catalog.js';

let dynamo: DynamoDbLocal | undefined;

export const SHARED_CATALOG_TABLE = 'tn-test-shared-catalog';

/**
 * One in-memory DynamoDB Local for the whole run; each test file makes its own table. The shipped
 * sample catalog is loaded once into a shared table that catalog tests read (and never change).
 */
export async function setup(project: TestProject): Promise<void> {
  let endpoint = process.env.TN_DYNAMODB_ENDPOINT;
  if (!endpoint) {
    dynamo = await startDynamoDbLocal({ inMemory: true });
    endpoint = dynamo.endpoint;
  }
  project.provide('dynamoDbEndpoint', endpoint);
  // Loading the sample catalog runs every ingestion in this process, where test/record-store-commands.ts does not: checked here.
  const recorder = new CommandRecorder();
  const store = createStore({ region: 'us-west-2', tableName: SHARED_CATALOG_TABLE, dynamoDbEndpoint: endpoint });
  recorder.attach(store.client);
  await ensureTable(store.client, SHARED_CATALOG_TABLE);
  // The core sample: the full all-department files would add ~100k records no test reads (see ADR 0018).
  const runs = await loadSampleCatalogOnce(store, { set: 'core' });
  const failed = runs.filter((run) => run.status !== 'succeeded');
  if (failed.length) throw new Error(`sample catalog failed to load: ${JSON.stringify(failed.map((r) => [r.origin, r.errors]))}`);
  const undeclared = uncoveredCommands(ALL_ACCESS_PATTERNS, recorder.commands()).map(describeCommand);
  if (undeclared.length) throw new Error(`loading the sample catalog sent commands no store module declares:\n  ${undeclared.join('\n  ')}`);
  store.doc.destroy();
  project.provide('sharedCatalogTable', SHARED_CATALOG_TABLE);
}

export async function teardown(): Promise<void> {
  await dynamo?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoDbEndpoint: string;
    sharedCatalogTable: string;
  }
}
