import type { ENTITY } from './keys.js';
import type { IndexName } from './table-definition.js';

/**
 * How a store module declares the DynamoDB access patterns it sends (issue 14: a store layer). The
 * declarations sit beside the commands; functions/all-access-patterns.ts collects them, the docs
 * (docs/access-patterns.md) are rendered from them, and the integration suite fails on any command it
 * sees that none of them covers (see access-pattern-matcher.ts).
 */

export type Operation =
  | 'GetItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'Query'
  | 'BatchGetItem'
  | 'BatchWriteItem'
  | 'TransactWriteItems'
  | 'TransactGetItems';

export type Entity = (typeof ENTITY)[keyof typeof ENTITY];

/** A sort-key condition of a template: a plain string is the whole sort key. */
type SortKeyTemplate = string | { beginsWith: string } | { between: readonly [string, string] };

/**
 * A key as keys.ts builds it, called with params: `sessionKeys.meta(param('sessionId'))` is the META
 * key of any session, `<sessionId>` standing in its partition key. Attribute names are the index's (PK
 * and SK on the table, GSI1PK and GSI1SK on GSI1…); without a sort key, a Query has no sort-key condition.
 */
export type KeyTemplate = Record<string, SortKeyTemplate | undefined>;

export interface AccessPattern {
  name: string;
  entity: Entity | Entity[];
  operation: Operation;
  index: 'table' | IndexName;
  /** Every key a command of this pattern may name (a batch or transaction names several). */
  keys: KeyTemplate[];
  usedBy: string[];
  notes?: string;
}

type Declaration = Omit<AccessPattern, 'keys'> & ({ key: KeyTemplate } | { keys: KeyTemplate[] });

/**
 * Declarations are documentation and test input; nothing at run time reads them, and Lambda bundles
 * must stay small. Hence each module's call is annotated `@__PURE__` and given the declarations as a
 * function: esbuild drops a pure call whose result no one uses, and the declarations go with it.
 */
export function declareAccessPatterns(declare: () => Declaration[]): AccessPattern[] {
  return declare().map((declaration) => {
    if ('keys' in declaration) return declaration;
    const { key, ...pattern } = declaration;
    return { ...pattern, keys: [key] };
  });
}

/**
 * A value in a key template: `<name>` is one key segment (text without '#'); a name ending in `...`
 * (`<recordId...>`) is any text, '#' included.
 */
export const param = (name: string) => `<${name}>`;

export const beginsWith = (prefix: string) => ({ beginsWith: prefix });

export const between = (from: string, to: string) => ({ between: [from, to] as const });

/** The attributes of an index's key, so templates and commands are read with the right names. */
export function keyAttributes(index: AccessPattern['index']): { partition: string; sort: string } {
  return index === 'table' ? { partition: 'PK', sort: 'SK' } : { partition: `${index}PK`, sort: `${index}SK` };
}

/** A template as the docs show it: the partition key equal to its template, then the sort key, its begins_with or its BETWEEN. */
export function renderKeyTemplate(index: AccessPattern['index'], template: KeyTemplate, operation: Operation): string {
  const { partition, sort } = keyAttributes(index);
  const partitionPart = `${partition} = ${String(template[partition])}`;
  const sk = template[sort];
  if (sk === undefined) return partitionPart;
  const joiner = operation === 'Query' ? ' AND ' : ', ';
  if (typeof sk === 'string') return `${partitionPart}${joiner}${sort} = ${sk === '' ? '""' : sk}`;
  if ('beginsWith' in sk) return `${partitionPart}${joiner}begins_with(${sort}, "${sk.beginsWith}")`;
  return `${partitionPart}${joiner}${sort} BETWEEN ${sk.between[0]} AND ${sk.between[1]}`;
}
