import type { AnyToolDefinition } from '../tools/define-tool.js';
import { annotationsOf, jsonSchemasOf, metadataOf } from '../tools/json-schemas.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Surface } from '../surface/surface-contract.js';
import { surfaceBreakingChanges, surfaceEntries, surfaceProblems, type ContractPrompt, type ContractResource, type ContractView } from './surface-entries.js';

const CONTRACT_VERSION = 1;
export const CONTRACT_PATH = `schema/tools.v${CONTRACT_VERSION}.json`;

export interface ContractTool {
  name: string;
  title: string;
  description: string;
  annotations: ReturnType<typeof annotationsOf>;
  metadata: ReturnType<typeof metadataOf>;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  examples: AnyToolDefinition['examples'];
}

export interface ToolContract {
  contractVersion: number;
  tools: ContractTool[];
  /** What hosts show people beside the tools (added after the first release of the contract). */
  resources?: ContractResource[];
  prompts?: ContractPrompt[];
  /** MCP Apps views of tool results (added after the first release of the contract). */
  views?: ContractView[];
}

export type JsonSchema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};

/**
 * The versioned contract: what callers may rely on, sorted so diffs are stable. Resources and prompts
 * are checked against the tools first: a broken one fails the build, not a host.
 */
export function buildContract(registry: ToolRegistry, surface: Surface = { resources: [], prompts: [] }): ToolContract {
  const problems = surfaceProblems(surface, new Set(registry.getAll().map((definition) => definition.name)));
  if (problems.length) throw new Error(`Resources and prompts are invalid:\n  ${problems.join('\n  ')}`);
  const tools = registry
    .getAll()
    .map((definition) => ({
      name: registry.servedName(definition),
      title: definition.title,
      description: definition.description,
      annotations: annotationsOf(definition),
      metadata: metadataOf(definition),
      inputSchema: jsonSchemasOf(definition).input as JsonSchema,
      outputSchema: jsonSchemasOf(definition).output as JsonSchema,
      examples: definition.examples,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { contractVersion: CONTRACT_VERSION, tools, ...surfaceEntries(surface, registry.prefix) };
}

/**
 * Changes that break a caller written against `previous`: a tool removed, an input field removed
 * or newly required, an output field removed, or a field's type changed. Additions are fine.
 */
export function breakingChanges(previous: ToolContract, current: ToolContract): string[] {
  const problems: string[] = [];
  const currentByName = new Map(current.tools.map((tool) => [tool.name, tool]));
  for (const before of previous.tools) {
    const after = currentByName.get(before.name);
    if (!after) {
      problems.push(`${before.name}: tool removed or renamed`);
      continue;
    }
    compareInput(before.name, before.inputSchema, after.inputSchema, problems);
    compareOutput(`${before.name} output`, before.outputSchema, after.outputSchema, problems);
  }
  problems.push(...surfaceBreakingChanges(previous, current));
  return problems;
}

function compareInput(where: string, before: JsonSchema, after: JsonSchema, problems: string[]): void {
  const beforeProps = before.properties ?? {};
  const afterProps = after.properties ?? {};
  for (const field of Object.keys(beforeProps)) {
    if (!(field in afterProps)) problems.push(`${where}: input field "${field}" removed or renamed`);
    else if (typeChanged(beforeProps[field]!, afterProps[field]!)) problems.push(`${where}: input field "${field}" changed type`);
  }
  const wasRequired = new Set(before.required ?? []);
  for (const field of after.required ?? []) {
    if (!wasRequired.has(field)) problems.push(`${where}: input field "${field}" is newly required`);
  }
}

function compareOutput(where: string, before: JsonSchema, after: JsonSchema, problems: string[]): void {
  if (typeChanged(before, after)) {
    problems.push(`${where}: type changed`);
    return;
  }
  const beforeProps = before.properties ?? {};
  const afterProps = after.properties ?? {};
  for (const [field, schema] of Object.entries(beforeProps)) {
    const next = afterProps[field];
    if (!next) problems.push(`${where}: field "${field}" removed or renamed`);
    else compareOutput(`${where}.${field}`, schema, next, problems);
  }
  if (before.items && after.items) compareOutput(`${where}[]`, before.items, after.items, problems);
}

function typeChanged(before: JsonSchema, after: JsonSchema): boolean {
  const typeOf = (schema: JsonSchema) => JSON.stringify([schema.type ?? null].flat().sort());
  return before.type !== undefined && after.type !== undefined && typeOf(before) !== typeOf(after);
}
