import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * Records the key of every item command a DynamoDB client sends, so the integration suite can check
 * each against the declared access patterns (access-pattern-matcher.ts). Test code only: test setup
 * attaches it to the stores a test file makes (test/record-store-commands.ts).
 */

type RecordedSortKey = { equals: string } | { beginsWith: string } | { between: [string, string] } | { compare: string; value: string };

/** One key a command names: an item's, or a Query's key condition. */
export interface RecordedKey {
  pk: string;
  sk?: RecordedSortKey;
}

export interface RecordedCommand {
  /** DynamoDB's operation name: GetItem, Query, BatchWriteItem… */
  operation: string;
  index: string;
  keys: RecordedKey[];
}

/**
 * Table management (local/ensure-table.ts and test setup create the table and turn TTL on) is not an
 * access pattern of the application: never recorded. Any other command is, and one with no keys to
 * read (a table scan, PartiQL) is therefore never covered.
 */
const TABLE_MANAGEMENT = new Set(['CreateTable', 'DeleteTable', 'DescribeTable', 'UpdateTable', 'ListTables', 'DescribeTimeToLive', 'UpdateTimeToLive']);

type Input = Record<string, unknown>;
type Item = Record<string, unknown>;

/** Key values as the document client has them, or as AttributeValues when sent through the plain client. */
const plain = (value: unknown): string => (value && typeof value === 'object' && 'S' in value ? String((value as { S: unknown }).S) : String(value));

const itemKey = (item: Item | undefined): RecordedKey => ({ pk: plain(item?.PK), sk: { equals: plain(item?.SK) } });

export function recordedCommand(commandName: string, input: Input): RecordedCommand | undefined {
  const operation = commandName.replace(/Command$/, '');
  if (TABLE_MANAGEMENT.has(operation)) return undefined;
  const index = typeof input.IndexName === 'string' ? input.IndexName : 'table';
  return { operation, index, keys: keysOf(operation, input) };
}

function keysOf(operation: string, input: Input): RecordedKey[] {
  const requests = Object.values((input.RequestItems ?? {}) as Record<string, unknown>);
  const transactItems = (input.TransactItems ?? []) as Record<string, { Item?: Item; Key?: Item }>[];
  switch (operation) {
    case 'GetItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [itemKey(input.Key as Item)];
    case 'PutItem':
      return [itemKey(input.Item as Item)];
    case 'Query':
      return [queryKey(input)];
    case 'BatchGetItem':
      return requests.flatMap((request) => ((request as { Keys: Item[] }).Keys ?? []).map(itemKey));
    case 'BatchWriteItem':
      return (requests as { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[][])
        .flat()
        .map((write) => itemKey(write.PutRequest?.Item ?? write.DeleteRequest?.Key));
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return transactItems.map((entry) => {
        const action = Object.values(entry)[0];
        return itemKey(action?.Item ?? action?.Key);
      });
    default:
      return [];
  }
}

/** The partition value and sort-key condition of a Query, names and values resolved. */
function queryKey(input: Input): RecordedKey {
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const name = (token: string) => (token.startsWith('#') ? (names[token] ?? token) : token);
  const value = (token: string) => plain(values[token]);
  const partitionName = input.IndexName ? `${String(input.IndexName)}PK` : 'PK';
  let expression = String(input.KeyConditionExpression ?? '');
  let sk: RecordedSortKey | undefined;
  const range = expression.match(/([#\w]+)\s+BETWEEN\s+(:\w+)\s+AND\s+(:\w+)/i);
  if (range) {
    sk = { between: [value(range[2]!), value(range[3]!)] };
    expression = expression.replace(range[0], '');
  }
  const prefix = expression.match(/begins_with\s*\(\s*([#\w]+)\s*,\s*(:\w+)\s*\)/i);
  if (prefix) sk = { beginsWith: value(prefix[2]!) };
  let pk = '';
  for (const [, attribute, operator, token] of expression.matchAll(/([#\w]+)\s*(<=|>=|=|<|>)\s*(:\w+)/g)) {
    if (name(attribute!) === partitionName && operator === '=') pk = value(token!);
    else sk = operator === '=' ? { equals: value(token!) } : { compare: operator!, value: value(token!) };
  }
  return sk ? { pk, sk } : { pk };
}

/** Distinct commands one recorder saw, in the order first seen. */
export class CommandRecorder {
  private readonly seen = new Map<string, RecordedCommand>();
  private readonly clients = new WeakSet<DynamoDBClient>();
  private static count = 0;
  private readonly middlewareName = `tnRecordStoreCommands${++CommandRecorder.count}`;

  /** Also records what a DynamoDBDocumentClient made from this client sends: they share one middleware stack. */
  attach(client: DynamoDBClient): void {
    if (this.clients.has(client)) return;
    this.clients.add(client);
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (!unrecordedScope.getStore()) this.record(context.commandName ?? 'unknown', args.input as Input);
        return next(args);
      },
      // Initialize runs before the document client marshalls: keys are still plain values.
      { step: 'initialize', name: this.middlewareName },
    );
  }

  record(commandName: string, input: Input): void {
    const command = recordedCommand(commandName, input);
    if (command) this.seen.set(JSON.stringify(command), command);
  }

  commands(): RecordedCommand[] {
    return [...this.seen.values()];
  }

  clear(): void {
    this.seen.clear();
  }
}

const unrecordedScope = new AsyncLocalStorage<true>();

/** Runs a test's own look at the table (arranging or inspecting items) without recording it as the application's. */
export function unrecorded<T>(send: () => Promise<T>): Promise<T> {
  return unrecordedScope.run(true, send);
}

let everyStore: CommandRecorder | undefined;

/**
 * The recorder every store of a test file records into: test/record-store-commands.ts attaches it to
 * each store createStore makes in the file (through vi.mock, so production code has no hook for it).
 */
export function everyStoreRecorder(): CommandRecorder {
  return (everyStore ??= new CommandRecorder());
}
