import { DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../local/ensure-table.js';
import { TABLE_DEFINITION } from '../../functions/platform/store/table-definition.js';

/** A client that notes the name of every command it sends. */
function recordingClient(): { client: DynamoDBClient; sent: string[] } {
  const client = new DynamoDBClient({ region: 'local', endpoint: inject('dynamoDbEndpoint'), credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const sent: string[] = [];
  client.middlewareStack.add(
    (next, context) => (args) => {
      sent.push(context.commandName ?? 'unknown');
      return next(args);
    },
    { step: 'initialize' },
  );
  return { client, sent };
}

describe('ensureTable', () => {
  it('creates a missing table from the shared definition, with TTL on', async () => {
    const tableName = `ensure-table-${Date.now()}`;
    const { client } = recordingClient();
    expect(await ensureTable(client, tableName)).toBe('created');
    const table = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect(table.Table?.TableStatus).toBe('ACTIVE');
    expect(table.Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(TABLE_DEFINITION.globalSecondaryIndexes.map((index) => index.indexName).sort());
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ TimeToLiveStatus: 'ENABLED', AttributeName: TABLE_DEFINITION.timeToLiveAttribute });
  });

  it('finds an existing table without DescribeTable (DynamoDB Local counts every item to answer it)', async () => {
    const tableName = `ensure-table-existing-${Date.now()}`;
    await ensureTable(recordingClient().client, tableName);
    const { client, sent } = recordingClient();
    expect(await ensureTable(client, tableName)).toBe('existing');
    expect(sent).toEqual(['DescribeTimeToLiveCommand']);
  });

  it('turns TTL back on for an existing table that has it off', async () => {
    const tableName = `ensure-table-ttl-${Date.now()}`;
    const { client } = recordingClient();
    await ensureTable(client, tableName);
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TABLE_DEFINITION.timeToLiveAttribute, Enabled: false } }));
    expect(await ensureTable(client, tableName)).toBe('existing');
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    expect(ttl.TimeToLiveDescription?.TimeToLiveStatus).toBe('ENABLED');
  });

  it('lets several starts create one new table at once (one creates it, all find TTL on, none fails)', async () => {
    // The race is a matter of timing (both find TTL off, the second to turn it on was refused): tried on several tables.
    for (let round = 0; round < 5; round++) {
      const tableName = `ensure-table-race-${Date.now()}-${round}`;
      const outcomes = await Promise.all([1, 2, 3].map(() => ensureTable(recordingClient().client, tableName)));
      expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
      const ttl = await recordingClient().client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
      expect(ttl.TimeToLiveDescription?.TimeToLiveStatus).toBe('ENABLED');
    }
  });

  it('projects on each index only what its queries read (never ALL)', async () => {
    const tableName = `ensure-table-projection-${Date.now()}`;
    const { client } = recordingClient();
    await ensureTable(client, tableName);
    const table = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const projections = Object.fromEntries((table.Table?.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index.Projection]));
    expect(projections.GSI2).toEqual({ ProjectionType: 'INCLUDE', NonKeyAttributes: ['listedHash'] });
    expect(projections.GSI1?.ProjectionType).toBe('INCLUDE');
    expect(projections.GSI1?.NonKeyAttributes).toEqual(expect.arrayContaining(['rows', 'status']));
  });
});
