import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { Domain } from '../tools/define-tool.js';

/** The MCP Apps resource type (`io.modelcontextprotocol/ui`, SEP-1865): an HTML page a host renders in a sandboxed frame. */
export const VIEW_MIME_TYPE = RESOURCE_MIME_TYPE;

/**
 * An MCP Apps view: a single-file HTML page that renders the results of the tools it names, inline in
 * hosts that implement the extension (hosts that do not ignore `_meta.ui` and show the text result).
 * The page is `web/views/<name>.tsx`, built into one self-contained HTML string; adding a view is that
 * file and one `defineView` beside its domain's other contracts.
 */
export interface ViewContract {
  /** kebab-case, unique among views; names the page's source file and its `ui://` URI. */
  name: string;
  domain: Domain;
  title: string;
  description: string;
  /** Tools (unprefixed) whose results it renders: each names the view in its `_meta.ui`. */
  tools: string[];
}

export function defineView(contract: ViewContract): ViewContract {
  return contract;
}

/**
 * One stable URI per view. The page reads every release's results (tool contracts only grow), so a
 * host that cached an older page still renders a newer result, and no URI ever has to change.
 */
export const viewUri = (name: string) => `ui://tutor-nexus/${name}`;

/**
 * What a host needs to sandbox the page (SEP-1865 `McpUiResourceMeta`). Empty domain lists: the page
 * loads nothing and connects nowhere, so the host's strictest policy fits it; they are stated rather
 * than omitted because some hosts refuse a view whose CSP is unset. No `domain`: a dedicated origin
 * only helps a page that calls its own APIs, and its format differs per host.
 */
export const VIEW_RESOURCE_META = {
  ui: {
    csp: { connectDomains: [] as string[], resourceDomains: [] as string[] },
    prefersBorder: true,
  },
};

/**
 * A tool's `_meta` naming its view: the spec's `ui.resourceUri`, and the flat `ui/resourceUri` key the
 * SDK's own registerAppTool still writes for hosts that read only the older form.
 */
export function toolViewMeta(view: ViewContract): Record<string, unknown> {
  const resourceUri = viewUri(view.name);
  return { ui: { resourceUri }, [RESOURCE_URI_META_KEY]: resourceUri };
}

/** A view's built page by name; rejects when the page was not built. */
export type ViewPages = (name: string) => Promise<string>;

const KEBAB = /^[a-z]+(-[a-z]+)*$/;

/** The rules a view definition must keep against the tools it is served with; empty when it keeps them. */
export function viewProblems(views: ViewContract[], toolNames: Set<string>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const viewOfTool = new Map<string, string>();
  for (const view of views) {
    const where = `view ${view.name}`;
    if (seen.has(view.name)) problems.push(`${where}: defined twice`);
    seen.add(view.name);
    if (!KEBAB.test(view.name)) problems.push(`${where}: name must be kebab-case`);
    if (view.description.length < 40) problems.push(`${where}: description must be at least 40 characters`);
    if (!view.tools.length) problems.push(`${where}: renders no tool`);
    for (const tool of view.tools) {
      if (!toolNames.has(tool)) problems.push(`${where}: no tool ${tool}`);
      const other = viewOfTool.get(tool);
      if (other) problems.push(`${where}: ${tool} already has view ${other} (a tool names one view)`);
      viewOfTool.set(tool, view.name);
    }
  }
  return problems;
}
