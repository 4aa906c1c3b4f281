import * as z from 'zod/v4';

/**
 * Transfer-credit rules from the BC Transfer Guide (BCTG), as parsed from its "Transfer Credit"
 * expressions (`SFU CMPT 125 (3), Q & SFU CMPT 127 (0) Exemption`). These schemas are part of MCP
 * tool output schemas, so every field carries a description.
 */

const TARGET_KINDS = ['course', 'generic', 'elective', 'no-credit', 'individual-assessment', 'exemption', 'unparsed'] as const;
const RULE_KINDS = ['credit', 'no-credit', 'individual-assessment'] as const;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const targetFields = {
  kind: z
    .enum(TARGET_KINDS)
    .describe(
      'course: a specific course; generic: unassigned credit in a subject at a level (SFU CMPT 1XX, UBCV CPSC 1st, UBCV ARTS 1st); ' +
        'elective: unassigned elective credit (UBC ELEV); no-credit; individual-assessment; exemption: a (0)-credit course granted as an ' +
        'exemption; unparsed: text the parser could not type (see `text`)',
    ),
  institution: z.string().optional().describe('Receiving institution slug, e.g. "sfu", "ubc", "ubco"'),
  subject: z.string().optional().describe('Subject code without campus suffix (CPSC_V → CPSC), e.g. "CMPT", "ARTS"'),
  number: z.string().optional().describe('Course number for specific courses, e.g. "125", "190A"'),
  code: z.string().optional().describe('Normalised course code for specific courses, e.g. "CMPT 125"'),
  pattern: z.string().optional().describe('Generic-credit pattern as written: "1XX", "2XXX", "XXX", "1st", "2nd", "100 lev", "1ARTHIS"'),
  level: z.number().int().optional().describe('Year level of generic credit (1XX, 1XXX, 1st, 100 lev → 1); absent when the pattern has none'),
  credits: z.number().nullable().describe('Credits awarded (decimals allowed, e.g. 1.5 UVIC units; 0 for exemptions); null when not applicable'),
  text: z.string().describe('The original fragment this target was parsed from'),
  designations: z.array(z.string()).optional().describe('SFU WQB designations on this target: "Q", "W", "B-Sci", "B-Hum", "B-Soc"'),
  note: z.string().optional().describe('Qualifier or area label attached to this target, e.g. "Visual Arts Studio", "for Engineering students"'),
};

/** An alternative award; alternatives do not nest, which keeps the JSON schema non-recursive. */
const AlternativeTargetSchema = z.object(targetFields).describe('One course or credit in an alternative award');
export type AlternativeTarget = z.infer<typeof AlternativeTargetSchema>;

export const TransferTargetSchema = z
  .object({
    ...targetFields,
    alternatives: z
      .array(z.array(AlternativeTargetSchema))
      .optional()
      .describe('Instead of this target the student may receive one of these sets (e.g. "FDU BIOL 1001 (3) or FDU BIOL 1011 (3)")'),
  })
  .describe('One course or credit awarded by a transfer rule');
export type TransferTarget = z.infer<typeof TransferTargetSchema>;

const SourceCourseSchema = z
  .object({
    institution: z.string().describe('Sending institution slug, e.g. "langara"'),
    code: z.string().describe('Sending course code, e.g. "CPSC 1160"'),
    credits: z.number().nullable().describe('Credits of the sending course, when stated'),
  })
  .describe('A course the rule requires at the sending institution');
export type SourceCourse = z.infer<typeof SourceCourseSchema>;

const SourceChoiceSchema = z
  .object({
    count: z.number().int().min(1).describe('How many of `from` are needed'),
    from: z.array(z.string()).describe('Codes to choose from; source courses not listed here are all required'),
  })
  .describe('Set when the sending side is a choice ("Any 2 of …", "one of …", "A or B = …")');

export const CONSTRAINT_TYPES = ['one-of', 'precludes', 'cap', 'repeatable'] as const;

const TransferConstraintSchema = z
  .object({
    type: z
      .enum(CONSTRAINT_TYPES)
      .describe(
        'one-of: at most `max` of `courses` earn credit ("Credit granted for only one of LANG ENGL 1127 or LANG ENGL 1128"); ' +
          'precludes: this award and credit for any of `courses` exclude each other ("Precludes credit for UBCV BIOL 345"); ' +
          'cap: the credits (`maxCredits`) or awards (`max`) earned through `courses`, or through courses of `subject` at `level`, or through ' +
          'the rules stating this same sentence, are capped ("Maximum credit for … is 6 credits", "Maximum of two 100 level STATS transfers"); ' +
          'repeatable: the receiving course in `courses` may be awarded more than once, up to `maxCredits` ("HIST 265 may be taken more than once, to max. credit of 9 units")',
      ),
    side: z.enum(['sending', 'receiving']).describe('Whose courses `courses` (and `subject`) name: the sending or the receiving institution\'s'),
    courses: z.array(z.string()).describe('Course codes the constraint names, e.g. ["ENGL 1127", "ENGL 1128"]'),
    max: z.number().int().min(0).optional().describe('one-of: how many of `courses` may earn credit; cap: how many awards'),
    maxCredits: z.number().optional().describe('cap, repeatable: most credits in the receiver\'s own unit (UVic units, other receivers credits)'),
    subject: z.string().optional().describe('cap: a subject the cap counts courses of (with `level`), as written, e.g. "STATS"'),
    level: z.number().int().optional().describe('cap: the year level it counts (100 level → 1)'),
    requires: z.string().optional().describe('repeatable: what a repeat needs that Tutor Nexus cannot check (e.g. "with permission of the department"); then repeats are not planned'),
    text: z.string().describe('The sentence as published'),
  })
  .describe('A limit the wording of a rule puts on what a plan may award across rules');
export type TransferConstraint = z.infer<typeof TransferConstraintSchema>;

const CONDITIONAL_AWARD_MODES = ['instead', 'option', 'exemption'] as const;

const ConditionalAwardSchema = z
  .object({
    targets: z.array(AlternativeTargetSchema).describe('What is awarded (or, for mode exemption, exempted) under the condition'),
    condition: z.string().describe('The condition as published, e.g. "If credit already received for SFU CMPT 102", "for the AA program"'),
    mode: z
      .enum(CONDITIONAL_AWARD_MODES)
      .describe('instead: replaces the main award when the condition holds; option: the student may receive it instead when the condition holds; exemption: an exemption (no credit) only under the condition'),
  })
  .describe('An award the wording gives only under a condition ("If credit already received for SFU CMPT 102, credit will be SFU CMPT 104 (2)")');
export type ConditionalAward = z.infer<typeof ConditionalAwardSchema>;

const PartialAwardSchema = z
  .object({
    count: z.number().int().min(1).describe('How many of the bundle\'s sending courses are enough'),
    targets: z.array(AlternativeTargetSchema).describe('What is awarded then'),
    text: z.string().describe('The sentence as published'),
  })
  .describe('What a bundle awards when only some of its courses are completed ("If any two of these courses are completed, UFV ENGL 108 (3) and UFV ENGL 1XX (3) will be awarded")');
export type PartialAward = z.infer<typeof PartialAwardSchema>;

/** Bumped whenever parsing changes what a rule says: rules stored by an older parser are read again from their text. */
export const PARSER_VERSION = 2;

const parsedFields = {
  sourceCourses: z.array(SourceCourseSchema).min(1).describe('Sending courses; several for a bundle ("LANG CPSC 1160 (3) & LANG CPSC 1181 (3) = …")'),
  sourceChoice: SourceChoiceSchema.optional(),
  targets: z.array(TransferTargetSchema).describe('Everything awarded together'),
  alternativeAwards: z
    .array(z.array(AlternativeTargetSchema))
    .describe('Whole-award alternatives when there are several targets ("… , or UBCO HMKN 190 (3) & UBCO HMKN 191 (3)"); a single target carries its own `alternatives`'),
  exemptions: z.array(z.string()).describe('Receiving-institution course codes the student is exempted from (no credit), e.g. ["CPSC 110"]'),
  preclusions: z.array(z.string()).describe('Receiving-institution course codes the student can no longer take for credit'),
  conditionText: z.string().nullable().describe('Condition prose, verbatim from the source (restrictions, exemption and preclusion sentences); null when none'),
  kind: z.enum(RULE_KINDS).describe('credit, no-credit or individual-assessment'),
  fullyParsed: z.boolean().describe('True when every credit expression was typed and no condition is left as free text (see untypedConditions)'),
  unparsedFragments: z.array(z.string()).describe('Fragments the parser could not type (kept verbatim, never dropped)'),
  untypedConditions: z
    .array(z.string())
    .optional()
    .describe('Condition sentences kept as free text: neither a typed condition, an exemption, a preclusion nor a label (e.g. "Not for credit in Science.")'),
  constraints: z.array(TransferConstraintSchema).optional().describe('Limits across a plan typed from the wording (exclusivity, preclusions, caps, repeatable courses)'),
  conditionalAwards: z.array(ConditionalAwardSchema).optional().describe('Awards given only under a condition, or instead of the main award'),
  partialAwards: z.array(PartialAwardSchema).optional().describe('What a bundle awards when only some of its courses are completed'),
  parserVersion: z.number().int().optional().describe('Version of the parser that typed this rule; older rules are read again from their published text'),
};

export const ParsedRuleSchema = z.object(parsedFields).describe('A BCTG transfer-credit expression, parsed');
export type ParsedRule = z.infer<typeof ParsedRuleSchema>;

const TransferProvenanceSchema = z
  .object({
    source: z.literal('bctransferguide').describe('Always "bctransferguide"'),
    sourceRecordId: z.string().describe('The record id within the source'),
    ingestedAt: z.iso.datetime().describe('When Tutor Nexus ingested it'),
  })
  .describe('Where the rule came from');

export const TransferRuleSchema = z
  .object({
    ruleId: z.string().describe('Stable id: hash of the normalised content (sender, source courses with their credits, receiver, targets, conditions) and start date'),
    senderInstitution: z.string().describe('Sending institution slug, e.g. "langara"'),
    receiverInstitution: z.string().describe('Receiving institution slug, e.g. "sfu"'),
    ...parsedFields,
    designations: z.array(z.string()).describe('Union of the designations of `targets` (alternatives excluded)'),
    rawDetail: z.string().describe('The BCTG credit expression as published (PDF rows: the whole merged cell)'),
    rawCondition: z.string().nullable().describe('The BCTG Condition field as published (API rows only)'),
    effectiveStart: z.string().regex(ISO_DATE).describe('First day the rule applies (YYYY-MM-DD)'),
    effectiveEnd: z.string().regex(ISO_DATE).nullable().describe('Last day the rule applies (YYYY-MM-DD); null when open-ended'),
    evidence: z
      .array(z.object({ label: z.string().describe('What the link shows, with the source record id'), url: z.string().describe('BC Transfer Guide search for the sending course') }))
      .describe('Where the rule can be checked'),
    sourceRecordId: z.string().describe('BCTG agreement Id (API rows) or a synthetic "LANG CPSC 1150 → SFU @ Sep/04" (PDF rows)'),
    listedUnder: z.number().int().min(1).describe('How many source rows carried this rule (a bundle is listed under each of its courses)'),
    mergedRecordIds: z.array(z.string()).describe('Record ids of the other rows merged into this rule'),
    provenance: TransferProvenanceSchema,
  })
  .describe('A transfer-credit rule as stored by ingestion');
export type TransferRule = z.infer<typeof TransferRuleSchema>;
