import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE_DEFINITION } from '../functions/shared/store/table-definition.js';

/** Creates the table from the shared definition when it is missing; safe to run on every start. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'existing'> {
  let outcome: 'created' | 'existing' = 'existing';
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    try {
      await client.send(new CreateTableCommand(createTableInput(tableName)));
      outcome = 'created';
    } catch (createError) {
      if (!(createError instanceof ResourceInUseException)) throw createError;
    }
  }
  await waitUntilActive(client, tableName);
  const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE_DEFINITION.timeToLiveAttribute, Enabled: true },
      }),
    );
  }
  return outcome;
}

async function waitUntilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const table = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (table.Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Table ${tableName} did not become ACTIVE`);
}
