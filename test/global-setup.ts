import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocal } from '../local/dynamodb-local.js';

let dynamo: DynamoDbLocal | undefined;

/** One in-memory DynamoDB Local for the whole run; each test file makes its own table. */
export async function setup(project: TestProject): Promise<void> {
  const endpoint = process.env.TN_DYNAMODB_ENDPOINT;
  if (endpoint) {
    project.provide('dynamoDbEndpoint', endpoint);
    return;
  }
  dynamo = await startDynamoDbLocal({ inMemory: true });
  project.provide('dynamoDbEndpoint', dynamo.endpoint);
}

export async function teardown(): Promise<void> {
  await dynamo?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoDbEndpoint: string;
  }
}
