import * as z from 'zod/v4';
import { DOMAINS, type AnyToolDefinition, type Domain, type ToolCategory } from './define-tool.js';

const NAME_PATTERN = /^[a-z]+(_[a-z]+)+$/;

/** How code and contracts name a tool in prose (`tn_session_ask`); served with the configured prefix. */
const CANONICAL_NAME = new RegExp(`\\btn_(?=(?:${DOMAINS.join('|')})_[a-z])`, 'g');

/**
 * Definitions this process has found valid. Definitions are immutable and a server builds a registry
 * per endpoint (and the Lambda entry one more), so each is checked once per process, not once per
 * registry: the examples' parses are most of a cold start's registration work (ADR 0049).
 */
const validDefinitions = new WeakSet<AnyToolDefinition>();

/**
 * Seed 001's registry, built per server instance from a list of definitions: nothing is registered
 * at import time, so importing a tool module has no side effects.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyToolDefinition>();
  /** Static text already rendered with this registry's prefix, per source object and part. */
  private readonly renderedParts = new WeakMap<object, Map<string, unknown>>();

  constructor(
    readonly prefix: string,
    definitions: AnyToolDefinition[] = [],
  ) {
    for (const definition of definitions) this.register(definition);
  }

  register(definition: AnyToolDefinition): void {
    if (!validDefinitions.has(definition)) {
      const problems = ToolRegistry.validate(definition);
      if (problems.length) throw new Error(`Tool ${definition.name} is invalid: ${problems.join('; ')}`);
      validDefinitions.add(definition);
    }
    const name = this.servedName(definition);
    if (this.tools.has(name)) throw new Error(`Tool ${name} is registered twice`);
    this.tools.set(name, definition);
  }

  servedName(definition: Pick<AnyToolDefinition, 'name'>): string {
    return `${this.prefix}${definition.name}`;
  }

  /**
   * Text that names tools (descriptions, error messages, hints, instructions) is written with the
   * default prefix; a deployment with another TN_TOOL_PREFIX serves it with its own, so an agent is
   * never pointed at a name that does not exist. Strings anywhere inside `value` are rendered.
   *
   * Only for text made per call (hints, instructions, error and resource messages, a prompt rendered
   * from its arguments): what every call shows alike goes through `rendered`, once per registry.
   */
  servedText<T>(value: T): T {
    if (this.prefix === 'tn_') return value;
    const render = (item: unknown): unknown => {
      if (typeof item === 'string') return item.replace(CANONICAL_NAME, this.prefix);
      if (Array.isArray(item)) return item.map(render);
      if (item && typeof item === 'object') return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, render(inner)]));
      return item;
    };
    return render(value) as T;
  }

  /**
   * What never changes while this registry lives (a tool's listing, a resource or prompt list, the
   * server's instructions): built and rendered with the prefix on first use, then the same object for
   * every call.
   * `source` is what the part is made from (a definition, a surface, the registry itself) and `part`
   * names which of its renderings this is. Callers must not mutate the result: it is shared.
   */
  rendered<T>(source: object, part: string, build: () => T): T {
    let parts = this.renderedParts.get(source);
    if (!parts) this.renderedParts.set(source, (parts = new Map()));
    if (!parts.has(part)) parts.set(part, this.servedText(build()));
    return parts.get(part) as T;
  }

  get(servedName: string): AnyToolDefinition | undefined {
    return this.tools.get(servedName);
  }

  getAll(): AnyToolDefinition[] {
    return [...this.tools.values()];
  }

  getByCategory(category: ToolCategory): AnyToolDefinition[] {
    return this.getAll().filter((tool) => tool.category === category);
  }

  getByTag(tag: string): AnyToolDefinition[] {
    return this.getAll().filter((tool) => tool.tags.includes(tag));
  }

  getByDomain(domain: Domain): AnyToolDefinition[] {
    return this.getAll().filter((tool) => tool.domain === domain);
  }

  /** Every rule of seeds 000-003 a definition can break; empty when it is valid. */
  static validate(definition: AnyToolDefinition): string[] {
    const problems: string[] = [];
    if (!NAME_PATTERN.test(definition.name)) problems.push('name must be snake_case <domain>_<verb>');
    if (!definition.name.startsWith(`${definition.domain}_`)) problems.push(`name must start with its domain "${definition.domain}_"`);
    if (definition.description.length < 50) problems.push('description must be at least 50 characters');
    if (!/use (it|this|when)|call (it|this)/i.test(definition.description)) problems.push('description must say when to use the tool');
    if (!/returns?/i.test(definition.description)) problems.push('description must say what it returns');
    if (!/^\d+\.\d+\.\d+$/.test(definition.version)) problems.push('version must be semver');
    if (!(definition.input instanceof z.ZodObject)) problems.push('input must be a zod object');
    if (definition.cacheable && !(definition.cacheTTL && definition.cacheTTL > 0)) problems.push('cacheable tools need a positive cacheTTL');
    if (definition.category === 'mutation' && definition.cacheable) problems.push('mutations must not be cacheable');
    if (definition.tags.length === 0) problems.push('at least one tag');
    if (definition.examples.length === 0) problems.push('at least one example');
    if (definition.access === 'user' && definition.permissions.length === 0) problems.push('user tools must name their permissions');
    for (const permission of definition.permissions) {
      if (!/^[a-z]+:[a-z]+$/.test(permission)) problems.push(`permission "${permission}" must be resource:action`);
    }
    if (definition.input instanceof z.ZodObject) {
      // Strict inputs turn a misspelled field into a named BAD_REQUEST instead of a silently ignored one.
      if (!(definition.input._zod.def.catchall instanceof z.ZodNever)) problems.push('input must be a strict object (z.strictObject)');
      for (const [field, schema] of Object.entries(definition.input.shape as Record<string, z.ZodType>)) {
        if (!schema.description) problems.push(`input field "${field}" needs a description`);
      }
      if (definition.destructive && !hasConfirmationLiteral(definition.input)) {
        problems.push('destructive tools need a required `confirm` literal');
      }
    }
    for (const [index, example] of definition.examples.entries()) {
      const parsed = definition.input.safeParse(example.input);
      if (example.expect !== 'BAD_REQUEST' && !parsed.success) problems.push(`example ${index} input does not validate`);
      if (example.output !== undefined && !definition.output.safeParse(example.output).success) {
        problems.push(`example ${index} output does not validate`);
      }
    }
    return problems;
  }
}

function hasConfirmationLiteral(input: z.ZodObject): boolean {
  const confirm = (input.shape as Record<string, z.ZodType>).confirm;
  return confirm instanceof z.ZodLiteral;
}
