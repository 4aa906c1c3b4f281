import { keyAttributes, type AccessPattern, type KeyTemplate } from '../../../functions/platform/store/access-patterns.js';
import type { RecordedCommand, RecordedKey } from './command-recorder.js';

/**
 * Whether a recorded command is one a store module declared: same operation and index, and every key
 * it names fits a key template of that one declaration (partition value, and the sort key or sort-key
 * condition when the template has one).
 */

const compiled = new Map<string, RegExp>();

/** `<name>` is one key segment (no '#'), `<name...>` any text; everything else is literal. */
function templateRegex(template: string, prefixOnly: boolean): RegExp {
  const cacheKey = `${prefixOnly ? 'prefix' : 'whole'}:${template}`;
  let regex = compiled.get(cacheKey);
  if (!regex) {
    const source = template
      .split(/(<[^<>]+>)/)
      .map((part) => (/^<[^<>]+>$/.test(part) ? (part.endsWith('...>') ? '.+' : '[^#]+') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    regex = new RegExp(prefixOnly ? `^${source}` : `^${source}$`, 's');
    compiled.set(cacheKey, regex);
  }
  return regex;
}

const whole = (template: string, value: string) => templateRegex(template, false).test(value);
const startsAs = (template: string, value: string) => templateRegex(template, true).test(value);

function keyFits(template: KeyTemplate, index: AccessPattern['index'], key: RecordedKey): boolean {
  const { partition, sort } = keyAttributes(index);
  const pk = template[partition];
  if (typeof pk !== 'string' || !whole(pk, key.pk)) return false;
  const sk = template[sort];
  if (sk === undefined || key.sk === undefined) return sk === undefined && key.sk === undefined;
  if (typeof sk === 'string') return 'equals' in key.sk && whole(sk, key.sk.equals);
  // A begins_with narrower than the declared one (a counter's kind and window after its prefix) reads within the same pattern.
  if ('beginsWith' in sk) return 'beginsWith' in key.sk && startsAs(sk.beginsWith, key.sk.beginsWith);
  return 'between' in key.sk && whole(sk.between[0], key.sk.between[0]) && whole(sk.between[1], key.sk.between[1]);
}

/**
 * Bulk writes (putAll) go out as BatchWriteItem, except on a store set to `bulkPuts: 'transactions'`
 * (the staged first load, ADR 0021), where the same puts go out 100 to a TransactWriteItems: a
 * pattern declared for the one covers them sent as the other.
 */
const sameWrites = (declared: AccessPattern['operation'], sent: RecordedCommand['operation']) =>
  declared === sent || (declared === 'BatchWriteItem' && sent === 'TransactWriteItems');

export function coveringPattern(patterns: AccessPattern[], command: RecordedCommand): AccessPattern | undefined {
  return patterns.find(
    (pattern) =>
      sameWrites(pattern.operation, command.operation) &&
      pattern.index === command.index &&
      command.keys.length > 0 &&
      command.keys.every((key) => pattern.keys.some((template) => keyFits(template, pattern.index, key))),
  );
}

export function uncoveredCommands(patterns: AccessPattern[], commands: RecordedCommand[]): RecordedCommand[] {
  return commands.filter((command) => !coveringPattern(patterns, command));
}

function describeKey(index: string, key: RecordedKey): string {
  const { partition, sort } = keyAttributes(index as AccessPattern['index']);
  const sk = key.sk;
  const pk = `${partition} = ${JSON.stringify(key.pk)}`;
  if (!sk) return pk;
  if ('equals' in sk) return `${pk}, ${sort} = ${JSON.stringify(sk.equals)}`;
  if ('beginsWith' in sk) return `${pk} AND begins_with(${sort}, ${JSON.stringify(sk.beginsWith)})`;
  if ('between' in sk) return `${pk} AND ${sort} BETWEEN ${JSON.stringify(sk.between[0])} AND ${JSON.stringify(sk.between[1])}`;
  return `${pk} AND ${sort} ${sk.compare} ${JSON.stringify(sk.value)}`;
}

/** One line naming the command and its keys (the first few of a batch), for a failing check. */
export function describeCommand(command: RecordedCommand): string {
  const shown = command.keys.slice(0, 4).map((key) => describeKey(command.index, key));
  const more = command.keys.length > shown.length ? `; … ${command.keys.length - shown.length} more` : '';
  return `${command.operation} on ${command.index}: ${shown.join('; ') || '(no key)'}${more}`;
}

/** What is wrong with the declarations themselves: keys outside the index's attributes, item operations without a sort key, names used twice. */
export function declarationProblems(patterns: AccessPattern[]): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const pattern of patterns) {
    if (names.has(pattern.name)) problems.push(`"${pattern.name}" is declared twice`);
    names.add(pattern.name);
    const { partition, sort } = keyAttributes(pattern.index);
    if (!pattern.keys.length) problems.push(`"${pattern.name}" declares no key`);
    for (const template of pattern.keys) {
      const extra = Object.keys(template).filter((attribute) => attribute !== partition && attribute !== sort);
      if (extra.length) problems.push(`"${pattern.name}" names ${extra.join(', ')}, not a key of ${pattern.index}`);
      if (typeof template[partition] !== 'string') problems.push(`"${pattern.name}" has no ${partition} value`);
      if (pattern.operation !== 'Query' && typeof template[sort] !== 'string') problems.push(`"${pattern.name}" (${pattern.operation}) needs a whole ${sort}`);
    }
  }
  return problems;
}
