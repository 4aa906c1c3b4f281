import * as z from 'zod/v4';
import { validateSurfaceItem, type AnyPromptContract, type AnyResourceContract, type CompletionKind, type Surface } from '../surface/surface-contract.js';
import { VIEW_MIME_TYPE, viewProblems, viewUri } from '../surface/view-contract.js';
import type { JsonSchema } from './tool-contract.js';

export interface ContractResource {
  name: string;
  title: string;
  description: string;
  domain: string;
  uriTemplate: string;
  access: 'public' | 'user';
  mimeTypes: string[];
  params: JsonSchema;
  completions: Record<string, CompletionKind>;
  readsTools: string[];
}

export interface ContractPrompt {
  name: string;
  title: string;
  description: string;
  domain: string;
  arguments: JsonSchema;
  completions: Record<string, CompletionKind>;
  usesTools: string[];
}

/** An MCP Apps view: the `ui://` page a host renders for the results of the tools it names. */
export interface ContractView {
  name: string;
  title: string;
  description: string;
  domain: string;
  uri: string;
  mimeType: string;
  tools: string[];
}

type SurfaceEntries = { resources?: ContractResource[]; prompts?: ContractPrompt[]; views?: ContractView[] };

const schemaOf = (schema: z.ZodObject): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const served = (prefix: string, names: string[]) => names.map((name) => `${prefix}${name}`);

/** Resources, prompts and views as the contract file records them, sorted by name. */
export function surfaceEntries(surface: Surface, prefix: string): { resources: ContractResource[]; prompts: ContractPrompt[]; views?: ContractView[] } {
  const resources = surface.resources
    .map((r: AnyResourceContract) => ({
      name: r.name,
      title: r.title,
      description: r.description,
      domain: r.domain,
      uriTemplate: r.uriTemplate,
      access: r.access,
      mimeTypes: ['text/markdown', 'application/json'],
      params: schemaOf(r.params),
      completions: (r.completions ?? {}) as Record<string, CompletionKind>,
      readsTools: served(prefix, r.readsTools),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const prompts = surface.prompts
    .map((p: AnyPromptContract) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      domain: p.domain,
      arguments: schemaOf(p.args),
      completions: (p.completions ?? {}) as Record<string, CompletionKind>,
      usesTools: served(prefix, p.usesTools),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const views = (surface.views ?? [])
    .map((v) => ({ name: v.name, title: v.title, description: v.description, domain: v.domain, uri: viewUri(v.name), mimeType: VIEW_MIME_TYPE, tools: served(prefix, v.tools) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { resources, prompts, ...(views.length ? { views } : {}) };
}

/**
 * What would break a host or a saved prompt: a resource removed or moved to another URI template, a
 * prompt removed, a prompt argument removed or newly required, a view removed or moved (hosts cache
 * pages by URI), or a tool no longer naming its view.
 */
export function surfaceBreakingChanges(previous: SurfaceEntries, current: SurfaceEntries): string[] {
  const problems: string[] = [];
  const views = new Map((current.views ?? []).map((v) => [v.name, v]));
  for (const before of previous.views ?? []) {
    const after = views.get(before.name);
    if (!after) problems.push(`view ${before.name}: removed or renamed`);
    else if (after.uri !== before.uri) problems.push(`view ${before.name}: URI changed`);
    else for (const tool of before.tools) if (!after.tools.includes(tool)) problems.push(`view ${before.name}: ${tool} no longer names it`);
  }
  const resources = new Map((current.resources ?? []).map((r) => [r.name, r]));
  for (const before of previous.resources ?? []) {
    const after = resources.get(before.name);
    if (!after) problems.push(`resource ${before.name}: removed or renamed`);
    else if (after.uriTemplate !== before.uriTemplate) problems.push(`resource ${before.name}: URI template changed`);
  }
  const prompts = new Map((current.prompts ?? []).map((p) => [p.name, p]));
  for (const before of previous.prompts ?? []) {
    const after = prompts.get(before.name);
    if (!after) {
      problems.push(`prompt ${before.name}: removed or renamed`);
      continue;
    }
    for (const field of Object.keys(before.arguments.properties ?? {})) {
      if (!(field in (after.arguments.properties ?? {}))) problems.push(`prompt ${before.name}: argument "${field}" removed or renamed`);
    }
    const wasRequired = new Set(before.arguments.required ?? []);
    for (const field of after.arguments.required ?? []) {
      if (!wasRequired.has(field)) problems.push(`prompt ${before.name}: argument "${field}" is newly required`);
    }
  }
  return problems;
}

/**
 * Every rule a resource or prompt can break against the tools it is served with: its own shape, tools it
 * reads or names that do not exist, completions of arguments it does not have, and prompt text naming a
 * tool it does not list (so the contract file says truthfully which tools each prompt sends a model to).
 */
export function surfaceProblems(surface: Surface, toolNames: Set<string>): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const [kind, items] of [['resource', surface.resources], ['prompt', surface.prompts]] as const) {
    for (const item of items) {
      const where = `${kind} ${item.name}`;
      if (names.has(`${kind}:${item.name}`)) problems.push(`${where}: defined twice`);
      names.add(`${kind}:${item.name}`);
      problems.push(...validateSurfaceItem(item, kind).map((problem) => `${where}: ${problem}`));
      const tools = kind === 'resource' ? (item as AnyResourceContract).readsTools : (item as AnyPromptContract).usesTools;
      for (const tool of tools) if (!toolNames.has(tool)) problems.push(`${where}: no tool ${tool}`);
      const args = Object.keys((kind === 'resource' ? (item as AnyResourceContract).params : (item as AnyPromptContract).args).shape as object);
      for (const field of Object.keys(item.completions ?? {})) if (!args.includes(field)) problems.push(`${where}: completes unknown argument "${field}"`);
    }
  }
  problems.push(...viewProblems(surface.views ?? [], toolNames));
  for (const prompt of surface.prompts) {
    const sample = Object.fromEntries(Object.keys(prompt.args.shape as object).map((field) => [field, 'x']));
    for (const [, named] of prompt.render(sample).matchAll(/\btn_([a-z]+(?:_[a-z]+)+)/g)) {
      if (!prompt.usesTools.includes(named!)) problems.push(`prompt ${prompt.name}: names tn_${named} but does not list it in usesTools`);
    }
  }
  return problems;
}
