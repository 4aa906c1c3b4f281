import * as z from 'zod/v4';
import type { Domain } from '../tools/define-tool.js';
import type { ViewContract, ViewPages } from './view-contract.js';

/**
 * What a completion of an argument draws from. `course-list` is a comma-separated list whose last
 * item is being typed; `course-code` completes a code within the institution named beside it.
 */
export const COMPLETION_KINDS = ['institution', 'course', 'course-list', 'course-code'] as const;
export type CompletionKind = (typeof COMPLETION_KINDS)[number];

/** Runs a tool by its unprefixed name the way tools/call would, and returns its output or throws its ErrorResponse. */
type ToolReader = (toolName: string, input: Record<string, unknown>) => Promise<unknown>;

interface ResourceContents {
  /** Shown to people (hosts render markdown). */
  markdown: string;
  /** The same view as the tool that reads it, for clients that parse. */
  json: unknown;
}

/**
 * A resource or resource template, defined once beside its domain's tool contracts. It reads through
 * tools (by name), so authentication, ownership, validation, caching and the AWS forwarding to the
 * owning function are the tools' own; the contract adds the URI and the rendering.
 */
export interface ResourceContract<P extends z.ZodObject = z.ZodObject> {
  /** kebab-case, unique among resources. */
  name: string;
  domain: Domain;
  title: string;
  description: string;
  /** RFC 6570 level-1 template (`course://{institution}/{code}`), or a fixed URI when it has no variables. */
  uriTemplate: string;
  /** Template variables; each is described (hosts show the description when asking for it). */
  params: P;
  /** Variables the host can complete, and from what. */
  completions?: Partial<Record<keyof z.output<P> & string, CompletionKind>>;
  /** `public` resources are readable anonymously; `user` ones need a signed-in owner. */
  access: 'public' | 'user';
  /** The tools it reads through (an endpoint serves a resource only where it serves these tools). */
  readsTools: string[];
  read: (params: z.output<P>, readTool: ToolReader) => Promise<ResourceContents>;
  /** Tool results link to this resource where a field of one of these names holds a value `linkFrom` reads (resource-links.ts). */
  linkFrom?: ResourceLinkSource;
}

/** Which output fields name this resource, and how such a value becomes the template's variables. */
interface ResourceLinkSource {
  fields: readonly string[];
  /** The template's variables for a field's value, or undefined when the value names no such resource. */
  variables: (value: string) => Record<string, string> | undefined;
  /** The link's name as hosts show it. */
  name: (value: string) => string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResourceContract = ResourceContract<any>;

export function defineResource<P extends z.ZodObject>(contract: ResourceContract<P>): ResourceContract<P> {
  return contract;
}

/**
 * A prompt: a template a person picks from a host's menu, expanded into one user message that tells
 * the model which tools to use. Tool names in the text use the default prefix; they are served with the
 * deployment's (ToolRegistry.servedText).
 */
export interface PromptContract<A extends z.ZodObject = z.ZodObject> {
  name: string;
  domain: Domain;
  title: string;
  description: string;
  /** String arguments only (the MCP prompt argument model), each described. */
  args: A;
  completions?: Partial<Record<keyof z.output<A> & string, CompletionKind>>;
  /** Tools the text names (listed so the contract check can hold the text to them). */
  usesTools: string[];
  render: (args: z.output<A>) => string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPromptContract = PromptContract<any>;

export function definePrompt<A extends z.ZodObject>(contract: PromptContract<A>): PromptContract<A> {
  return contract;
}

/** What this deployment serves beside its tools. */
export interface Surface {
  resources: AnyResourceContract[];
  prompts: AnyPromptContract[];
  /** MCP Apps views of tool results (`ui://` resources). */
  views?: ViewContract[];
  /** Where this deployment's built view pages come from (beside the bundle in AWS, built on first read locally). */
  viewPages?: ViewPages;
}

const KEBAB = /^[a-z]+(-[a-z]+)*$/;

/** The rules a resource or prompt definition must keep; empty when it keeps them. */
export function validateSurfaceItem(item: AnyResourceContract | AnyPromptContract, kind: 'resource' | 'prompt'): string[] {
  const problems: string[] = [];
  if (!KEBAB.test(item.name)) problems.push('name must be kebab-case');
  if (item.description.length < 40) problems.push('description must be at least 40 characters');
  const schema = kind === 'resource' ? (item as AnyResourceContract).params : (item as AnyPromptContract).args;
  for (const [field, value] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (!value.description) problems.push(`argument "${field}" needs a description`);
  }
  if (kind === 'resource') {
    const variables = templateVariables((item as AnyResourceContract).uriTemplate);
    const fields = Object.keys(schema.shape as object);
    if (variables.join() !== fields.join()) problems.push(`template variables (${variables.join()}) must be the params (${fields.join()}) in order`);
  }
  return problems;
}

export function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{([a-zA-Z]+)\}/g)].map((match) => match[1]!);
}

/** `course://{institution}/{code}` + values → `course://sfu/CMPT%20225` (RFC 6570 simple expansion). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-zA-Z]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

/** The variables of `uri` under `template`, or undefined when it does not match. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names = templateVariables(template);
  const pattern = template
    .split(/\{[a-zA-Z]+\}/)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('([^/?#]+)');
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return undefined;
  try {
    return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
  } catch {
    return undefined;
  }
}

/** The resource `uri` names and its variables, or undefined when none matches. */
export function findResource(surface: Surface, uri: string): { resource: AnyResourceContract; values: Record<string, string> } | undefined {
  for (const resource of surface.resources) {
    const values = matchTemplate(resource.uriTemplate, uri);
    if (values) return { resource, values };
  }
  return undefined;
}

/** The part of a surface an endpoint serving `registry`'s tools can answer: resources whose tools it serves, prompts of its domains. */
export function surfaceFor(surface: Surface, servedTools: Set<string>, domains: Set<string>): Surface {
  return {
    resources: surface.resources.filter((r) => r.readsTools.every((tool) => servedTools.has(tool))),
    prompts: surface.prompts.filter((p) => domains.has(p.domain)),
    // A view is served wherever a tool it renders is.
    ...(surface.views ? { views: surface.views.filter((v) => v.tools.some((tool) => servedTools.has(tool))), viewPages: surface.viewPages } : {}),
  };
}
