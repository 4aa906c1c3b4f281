import * as z from 'zod/v4';

/**
 * The prerequisite tree returned to agents. Interfaces are written out (rather than inferred)
 * because the schema is recursive: zod cannot infer a type that refers to itself.
 */

const CONDITION_CATEGORIES = ['credits', 'gpa', 'permission', 'program', 'high-school', 'standing', 'other'] as const;
export type ConditionCategory = (typeof CONDITION_CATEGORIES)[number];

interface AllNode {
  type: 'all';
  children: RequirementNode[];
}

interface AnyNode {
  type: 'any';
  children: RequirementNode[];
  count?: number;
}

export interface CourseNode {
  type: 'course';
  code: string;
  institution?: string;
  minGrade?: string;
  concurrent?: boolean;
  orEquivalent?: boolean;
}

export interface ConditionNode {
  type: 'condition';
  text: string;
  category?: ConditionCategory;
  value?: number;
  minGrade?: string;
  orEquivalent?: boolean;
}

interface UnparsedNode {
  type: 'unparsed';
  text: string;
}

export type RequirementNode = AllNode | AnyNode | CourseNode | ConditionNode | UnparsedNode;

const minGrade = z
  .string()
  .describe('Minimum grade: a letter grade ("C-", "B+"), a pass grade ("S", "P") or a percentage ("64%")');

const CourseNodeSchema = z
  .object({
    type: z.literal('course').describe('A single course that must be completed'),
    code: z.string().describe('Normalised course code, `SUBJ NUM`, e.g. "CMPT 125"'),
    institution: z.string().optional().describe('Institution slug offering the course, e.g. "sfu"'),
    minGrade: minGrade.optional(),
    concurrent: z
      .boolean()
      .optional()
      .describe('True when the course may be taken concurrently (corequisite allowed) instead of beforehand'),
    orEquivalent: z.boolean().optional().describe('True when the text also accepts an unnamed equivalent course'),
  })
  .describe('A course requirement');

const ConditionNodeSchema = z
  .object({
    type: z.literal('condition').describe('A non-course requirement kept as text'),
    text: z.string().describe('The requirement as written, e.g. "60 units" or "permission of the department"'),
    category: z.enum(CONDITION_CATEGORIES).optional().describe('What kind of requirement this is'),
    value: z
      .number()
      .optional()
      .describe('The number in the requirement when obvious: units/credits, GPA, year of standing, test score'),
    minGrade: minGrade.optional(),
    orEquivalent: z.boolean().optional().describe('True when an equivalent (e.g. another province\'s course) is accepted'),
  })
  .describe('A requirement that is not a course: credits, GPA, permission, program, high-school course, standing');

const UnparsedNodeSchema = z
  .object({
    type: z.literal('unparsed').describe('A clause the parser could not type'),
    text: z.string().describe('The clause exactly as it appears in the source text'),
  })
  .describe('A clause the parser could not interpret; read the text yourself');

const AllNodeSchema: z.ZodType<AllNode> = z
  .object({
    type: z.literal('all').describe('Every child is required (AND)'),
    get children() {
      return z.array(RequirementNodeSchema).describe('The requirements that must all be met');
    },
  })
  .describe('All of the children are required');

const AnyNodeSchema: z.ZodType<AnyNode> = z
  .object({
    type: z.literal('any').describe('Alternatives (OR)'),
    get children() {
      return z.array(RequirementNodeSchema).describe('The alternatives');
    },
    count: z.number().int().min(1).optional().describe('How many alternatives are needed ("two of"); 1 when absent'),
  })
  .describe('One (or `count`) of the children is required');

export const RequirementNodeSchema: z.ZodType<RequirementNode> = z
  .union([AllNodeSchema, AnyNodeSchema, CourseNodeSchema, ConditionNodeSchema, UnparsedNodeSchema])
  .describe('A node of a prerequisite tree')
  // A named component lets OpenAPI generators refer to the recursive tree instead of expanding it forever.
  .meta({ id: 'RequirementNode' });

export const ParseResultSchema = z
  .object({
    tree: RequirementNodeSchema.describe('The requirement tree; an empty `all` means no prerequisites'),
    fullyParsed: z.boolean().describe('False when any clause was left as an `unparsed` node'),
    unparsedClauses: z.array(z.string()).describe('Texts of the clauses the parser could not interpret'),
    recommended: z
      .array(z.string())
      .describe('Recommendations found in the text ("Recommended: MATH 251"); not requirements'),
    notes: z
      .array(z.string())
      .describe('Informational sentences that are not requirements (validity periods, credit exclusions)'),
  })
  .describe('A parsed prerequisite text');

export type ParseResult = z.infer<typeof ParseResultSchema>;
