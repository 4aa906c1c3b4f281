import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ALL_ACCESS_PATTERNS } from '../../functions/all-access-patterns.js';
import { coveringPattern, declarationProblems, describeCommand, uncoveredCommands } from '../support/store/access-pattern-matcher.js';
import { CommandRecorder, recordedCommand, unrecorded, type RecordedCommand } from '../support/store/command-recorder.js';
import { catalogKeys, keys, oauthKeys, sessionKeys, userPk } from '../../functions/platform/store/keys.js';

const SESSION = '01JABCDEFGHJKMNPQRSTVWXYZ0';
const query = (input: Record<string, unknown>) => recordedCommand('QueryCommand', input)!;
const covered = (command: RecordedCommand) => coveringPattern(ALL_ACCESS_PATTERNS, command)?.name;

describe('access pattern declarations', () => {
  it('are well formed: keys of their index, a whole sort key for item operations, names used once', () => {
    expect(ALL_ACCESS_PATTERNS.length).toBeGreaterThan(50);
    expect(declarationProblems(ALL_ACCESS_PATTERNS)).toEqual([]);
  });

  it('cover commands the code sends, with real keys', () => {
    expect(covered(recordedCommand('GetItemCommand', { Key: sessionKeys.meta(SESSION) })!)).toBe('Read a session (owner, status, expiry, lastSeq)');
    expect(
      covered(query({ KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to', ExpressionAttributeValues: { ':pk': sessionKeys.partition(SESSION), ':from': sessionKeys.eventSk(1), ':to': sessionKeys.eventSk(51) } })),
    ).toBe('Events by seq range');
    // A narrower begins_with than the declared one is the same pattern.
    expect(
      covered(query({ KeyConditionExpression: '#pk = :pk AND begins_with(SK, :p)', ExpressionAttributeNames: { '#pk': 'PK' }, ExpressionAttributeValues: { ':pk': userPk('u1'), ':p': keys.quotaCounterPrefix('prompts#2026-11-24') } })),
    ).toBe('Read quota counters of the current windows');
    expect(covered(query({ IndexName: 'GSI1', KeyConditionExpression: 'GSI1PK = :g', ExpressionAttributeValues: { ':g': oauthKeys.grantIndex('aGFzaA') } }))).toBe('Everything one grant issued (revocation)');
    const transfer = recordedCommand('BatchGetItemCommand', { RequestItems: { t: { Keys: [catalogKeys.courseTransfersOut('langara', 'CPSC 1150', 'bctransferguide'), catalogKeys.courseTransfersOut('langara', 'MATH 1171', 'bctransferguide')] } } })!;
    // The same keys are read by ingestion (whole aggregates it settles): both declarations cover them.
    const coveringAll = (command: RecordedCommand) => ALL_ACCESS_PATTERNS.filter((pattern) => coveringPattern([pattern], command)).map((pattern) => pattern.name);
    expect(coveringAll(transfer)).toContain("Sending courses' rules towards every receiver, in bulk (the transfer index)");
    // A course page: one Query of the course's own partition, nothing else.
    expect(covered(query({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': catalogKeys.coursePartition('sfu', 'CMPT 225') } }))).toBe(
      'Everything about one course (fragments, offerings, sections, grades, materials, transfer rules)',
    );
    // The staged first load sends a batch's puts as one transaction: the batch's pattern covers it.
    const staged = recordedCommand('TransactWriteItemsCommand', { TransactItems: [{ Put: { Item: catalogKeys.termsOffered('sfu', 'sfu-sections', '2025-fall', '2025-fall') } }] })!;
    expect(covered(staged)).toBe("Replace a source's term lists");
  });

  it('reject what no store module declares, naming the command', () => {
    const undeclared = [
      recordedCommand('GetItemCommand', { Key: { PK: userPk('u1'), SK: 'SECRET' } })!,
      recordedCommand('DeleteItemCommand', { Key: sessionKeys.meta(SESSION) })!,
      query({ IndexName: 'GSI2', KeyConditionExpression: 'GSI2PK = :pk', ExpressionAttributeValues: { ':pk': userPk('u1') } }),
      query({ KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)', ExpressionAttributeValues: { ':pk': userPk('u1'), ':p': 'Q' } }),
      query({ KeyConditionExpression: 'PK = :pk AND SK > :after', ExpressionAttributeValues: { ':pk': sessionKeys.partition(SESSION), ':after': sessionKeys.eventSk(3) } }),
      recordedCommand('TransactWriteItemsCommand', { TransactItems: [{ Update: { Key: sessionKeys.meta(SESSION) } }, { Put: { Item: { ...keys.preferences('u1') } } }] })!,
      recordedCommand('ScanCommand', { TableName: 't' })!,
    ];
    expect(uncoveredCommands(ALL_ACCESS_PATTERNS, undeclared)).toEqual(undeclared);
    expect(describeCommand(undeclared[0]!)).toBe('GetItem on table: PK = "USER#u1", SK = "SECRET"');
    expect(describeCommand(undeclared[2]!)).toBe('Query on GSI2: GSI2PK = "USER#u1"');
    expect(describeCommand(undeclared[6]!)).toBe('Scan on table: (no key)');
  });

  it('read every key of batches and transactions, and leave table management out', () => {
    const write = recordedCommand('BatchWriteItemCommand', {
      RequestItems: { t: [{ PutRequest: { Item: { ...sessionKeys.event(SESSION, 1), content: 'x' } } }, { DeleteRequest: { Key: { PK: { S: 'A#1' }, SK: { S: 'B' } } } }] },
    });
    expect(write?.keys).toEqual([
      { pk: sessionKeys.partition(SESSION), sk: { equals: sessionKeys.eventSk(1) } },
      { pk: 'A#1', sk: { equals: 'B' } },
    ]);
    expect(recordedCommand('CreateTableCommand', { TableName: 't' })).toBeUndefined();
    expect(recordedCommand('UpdateTimeToLiveCommand', { TableName: 't' })).toBeUndefined();
  });
});

describe('command recorder', () => {
  it("records what a document client sends, except a test's own look at the table", async () => {
    const client = new DynamoDBClient({ region: 'us-west-2', endpoint: 'http://127.0.0.1:9', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const recorder = new CommandRecorder();
    recorder.attach(client);
    // Answer every command before it leaves the process.
    client.middlewareStack.add(() => async () => ({ output: { $metadata: {} }, response: {} }), { step: 'initialize', priority: 'low', name: 'answerLocally' });
    const doc = DynamoDBDocumentClient.from(client);
    await doc.send(new GetCommand({ TableName: 't', Key: keys.subscription('u1') }));
    await doc.send(new QueryCommand({ TableName: 't', IndexName: 'GSI1', KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'GSI1PK' }, ExpressionAttributeValues: { ':pk': 'x' } }));
    await unrecorded(() => doc.send(new PutCommand({ TableName: 't', Item: { PK: 'anything', SK: 'at all' } })));
    expect(recorder.commands()).toEqual([
      { operation: 'GetItem', index: 'table', keys: [{ pk: userPk('u1'), sk: { equals: keys.subscription('u1').SK } }] },
      { operation: 'Query', index: 'GSI1', keys: [{ pk: 'x' }] },
    ]);
  });
});
