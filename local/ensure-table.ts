import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  type TimeToLiveDescription,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE_DEFINITION } from '../functions/platform/store/table-definition.js';

/**
 * Creates the table from the shared definition when it is missing; safe to run on every start.
 * An existing table is found with DescribeTimeToLive, not DescribeTable: DynamoDB Local answers
 * DescribeTable by counting the table's items and bytes (a third of a second on the full sample,
 * every call), and the TTL setting has to be read anyway.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'existing'> {
  let ttl = await describeTimeToLive(client, tableName);
  let outcome: 'created' | 'existing' = 'existing';
  if (!ttl) {
    try {
      await client.send(new CreateTableCommand(createTableInput(tableName)));
      outcome = 'created';
    } catch (createError) {
      if (!(createError instanceof ResourceInUseException)) throw createError;
    }
    // Only a table just created (here or by a concurrent start) can still be CREATING.
    await waitUntilActive(client, tableName);
    ttl = await describeTimeToLive(client, tableName);
  }
  if (!ttlOn(ttl)) {
    try {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: TABLE_DEFINITION.timeToLiveAttribute, Enabled: true },
        }),
      );
    } catch (error) {
      // Two starts on one new table both find TTL off; the second to ask is refused ("TimeToLive is already
      // enabled"). What matters is that it is on.
      if ((error as { name?: string }).name !== 'ValidationException' || !ttlOn(await describeTimeToLive(client, tableName))) throw error;
    }
  }
  return outcome;
}

const ttlOn = (ttl: TimeToLiveDescription | undefined) => ttl?.TimeToLiveStatus === 'ENABLED' || ttl?.TimeToLiveStatus === 'ENABLING';

/** The table's TTL setting, or undefined when there is no such table. */
async function describeTimeToLive(client: DynamoDBClient, tableName: string): Promise<TimeToLiveDescription | undefined> {
  try {
    const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    return TimeToLiveDescription ?? {};
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

async function waitUntilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const table = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (table.Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Table ${tableName} did not become ACTIVE`);
}
