import { parseArgs } from 'node:util';
import type { ToolOutput } from '../functions/mcp/tools/define-tool.js';
import type { compareContract } from '../functions/transfer/contracts/compare.js';
import { CliError, withConnection } from './connection.js';
import { readCourseCodes } from './course-codes.js';
import { paint, printJson, table, withProgress, type Io } from './output.js';

interface Match {
  ruleId: string;
  usedCourses: string[];
  missingCourses: string[];
  targets: { text?: string; kind?: string }[];
  targetCredits: number | null;
  confidence: number;
  condition: string | null;
}

interface Resolved {
  sourceInstitution: string;
  targetInstitution: string;
  asOfDate: string;
  exactMatches: Match[];
  partialMatches: Match[];
  conditionalMatches?: Match[];
  nearMisses: { course: string; reason: string }[];
  plan: { totalCredits: number; ruleIds: string[]; constraints?: { text: string; limitedPlan: boolean }[] };
}

/** "POLI 1250=2010-12" (or "poli1250=2010-12") → { "POLI 1250": "2010-12" }: when each course was completed. */
function completedOn(values: string[] | undefined): Record<string, string> | undefined {
  if (!values?.length) return undefined;
  return Object.fromEntries(
    values.map((value) => {
      const at = value.lastIndexOf('=');
      if (at < 1) throw new CliError(`--completed-on takes COURSE=DATE, e.g. "POLI 1250=2010-12"; got "${value}"`, 'USAGE', 2);
      const typed = value.slice(0, at).trim();
      return [oneCode(typed) ?? typed, value.slice(at + 1).trim()];
    }),
  );
}

/** The code as the server spells it when the text is one course code, else undefined (the server names what it cannot find). */
function oneCode(typed: string): string | undefined {
  try {
    const codes = readCourseCodes([typed], { example: 'POLI 1250' });
    return codes.length === 1 ? codes[0]!.code : undefined;
  } catch {
    return undefined;
  }
}

/** `--completed-on POLI 1250=2010-12` typed without quotes: the code's words and the date are one value. */
function joinCompletedOn(args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    joined.push(arg);
    const next = args[i + 1];
    if (arg !== '--completed-on' || next === undefined || next.includes('=') || next.startsWith('--')) continue;
    const date = args[i + 2];
    if (date !== undefined && /^[^-][^=\s]*=/.test(date)) {
      joined.push(`${next} ${date}`);
      i += 2;
    }
  }
  return joined;
}

/** The courses as typed, quoted or not ("CPSC 1150 MATH 1171", "cpsc1150"), each once. */
function sourceCourses(positionals: string[]): string[] {
  return [...new Set(readCourseCodes(positionals, { example: 'CPSC 1150 MATH 1171' }).map((c) => c.code))];
}

const STUDENT_OPTIONS = {
  'as-of': { type: 'string' },
  'completed-on': { type: 'string', multiple: true },
  program: { type: 'string' },
  json: { type: 'boolean' },
} as const;

function studentInput(values: { 'as-of'?: string; 'completed-on'?: string[]; program?: string }) {
  const dates = completedOn(values['completed-on']);
  return { ...(values['as-of'] ? { asOfDate: values['as-of'] } : {}), ...(dates ? { completedOn: dates } : {}), ...(values.program ? { program: values.program } : {}) };
}

/** `tn transfer --from langara --to sfu CPSC 1160 CPSC 1181 [--as-of YYYY-MM-DD] [--completed-on CPSC 1160=2019-12] [--program P] [--json]` (codes quoted or not). */
export async function transfer(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args: joinCompletedOn(args), allowPositionals: true, options: { from: { type: 'string' }, to: { type: 'string' }, ...STUDENT_OPTIONS } });
  if (!values.from || !values.to || !positionals.length) throw new CliError('Usage: tn transfer --from langara --to sfu CPSC 1160 CPSC 1181', 'USAGE', 2);
  const input = { sourceInstitution: values.from, targetInstitution: values.to, sourceCourses: sourceCourses(positionals), ...studentInput(values) };
  const result = await withConnection(io.env, (c) => withProgress(io, 'Resolving transfer credit…', () => c.call<Resolved>('tn_transfer_resolve', input)));
  if (values.json) return printJson(io, result), 0;
  const kinds: [string, Match[]][] = [
    ['exact', result.exactMatches],
    ['partial', result.partialMatches],
    ['conditional', result.conditionalMatches ?? []],
  ];
  const rows = kinds.flatMap(([kind, matches]) =>
    matches.map((m) => [
      kind,
      m.usedCourses.join(' + '),
      m.targets.map((t) => t.text ?? t.kind).join(', '),
      m.targetCredits,
      m.missingCourses.length ? `missing ${m.missingCourses.join(', ')}` : (m.condition ?? ''),
      m.confidence.toFixed(2),
    ]),
  );
  io.out(`${paint(io, 'bold', `${result.sourceInstitution} → ${result.targetInstitution}`)} (rules in force ${result.asOfDate})\n`);
  if (rows.length) io.out(table(io, ['match', 'courses', 'earns', 'credits', 'note', 'confidence'], rows));
  else io.out('No transfer rule covers these courses.\n');
  for (const miss of result.nearMisses) io.out(paint(io, 'yellow', `${miss.course}: ${miss.reason}\n`));
  io.out(`Best plan: ${result.plan.totalCredits} credits from ${result.plan.ruleIds.length} rule${result.plan.ruleIds.length === 1 ? '' : 's'}.\n`);
  for (const limit of (result.plan.constraints ?? []).filter((c) => c.limitedPlan)) io.out(paint(io, 'yellow', `Limited by the wording: ${limit.text}\n`));
  return 0;
}

type Compared = ToolOutput<typeof compareContract>;

/** `tn compare --from langara CPSC 1150 MATH 1171 [--to sfu --to uvic] [--as-of …] [--completed-on …] [--program …] [--json]`: every receiver, ranked on one credit scale. */
export async function compare(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args: joinCompletedOn(args), allowPositionals: true, options: { from: { type: 'string' }, to: { type: 'string', multiple: true }, ...STUDENT_OPTIONS } });
  if (!values.from || !positionals.length) throw new CliError('Usage: tn compare --from langara CPSC 1150 MATH 1171 [--to sfu --to uvic]', 'USAGE', 2);
  const input = { sourceInstitution: values.from, sourceCourses: sourceCourses(positionals), ...(values.to?.length ? { receivers: values.to } : {}), ...studentInput(values) };
  const result = await withConnection(io.env, (c) => withProgress(io, 'Comparing receivers…', () => c.call<Compared>('tn_transfer_compare', input)));
  if (values.json) return printJson(io, result), 0;
  const code = (ref: string) => ref.slice(ref.indexOf(':') + 1);
  const rows = result.receivers.map((r) => [
    r.name ?? r.institution,
    `${r.plannedCredits} ${r.creditScale?.unit ?? 'credits'}`,
    r.normalizedCredits ?? r.plannedCredits,
    r.coursesTransferred.map(code).join(', ') || '–',
    r.coursesLost.map(code).join(', ') || '–',
  ]);
  if (rows.length) io.out(table(io, ['receiver', 'planned', 'common scale', 'transfers', 'lost'], rows));
  else io.out('No receiving institution has rules for these courses.\n');
  const scales = [...new Map(result.receivers.filter((r) => r.creditScale && r.creditScale.factor !== 1).map((r) => [r.institution, r.creditScale!.rule])).entries()];
  for (const [institution, rule] of scales) io.out(`${institution}: ${rule}\n`);
  if (rows.length) io.out('Ranked by the common scale, where a one-term course is 3 credits.\n');
  return 0;
}
