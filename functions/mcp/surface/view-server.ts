import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { logger } from '../../platform/observability.js';
import { DOMAIN_ICONS } from './icons.js';
import type { Surface } from './surface-contract.js';
import { toolViewMeta, VIEW_MIME_TYPE, VIEW_RESOURCE_META, viewUri, type ViewContract } from './view-contract.js';

/** The views an endpoint serves, as resources/list entries (listed so a host can review and prefetch them); renamed for the prefix with the list they join. */
export function viewResources(surface: Surface) {
  return (surface.views ?? []).map((view) => ({
    uri: viewUri(view.name),
    name: view.name,
    title: view.title,
    description: view.description,
    mimeType: VIEW_MIME_TYPE,
    icons: DOMAIN_ICONS[view.domain],
    _meta: VIEW_RESOURCE_META,
  }));
}

/** `_meta` entries for tools/list, by unprefixed tool name: each tool with a view names it. */
export function viewMetaByTool(surface: Surface): Map<string, Record<string, unknown>> {
  const byTool = new Map<string, Record<string, unknown>>();
  for (const view of surface.views ?? []) for (const tool of view.tools) byTool.set(tool, toolViewMeta(view));
  return byTool;
}

export function findView(surface: Surface, uri: string): ViewContract | undefined {
  return surface.views?.find((view) => viewUri(view.name) === uri);
}

/**
 * A view's page as resources/read answers it. The page learns this deployment's tool prefix from a
 * meta tag, so the tools it calls back are named as served.
 */
export async function readView(surface: Surface, view: ViewContract, toolPrefix: string) {
  let page: string;
  try {
    if (!surface.viewPages) throw new Error('no view pages configured');
    page = await surface.viewPages(view.name);
  } catch (error) {
    logger.error('view page unavailable', { view: view.name, error: error instanceof Error ? error.message : String(error) });
    throw new ProtocolError(ProtocolErrorCode.InternalError, `SERVICE_UNAVAILABLE: the ${view.title} view is not available on this deployment.`);
  }
  const text = page.replace('<head>', `<head><meta name="tn-tool-prefix" content="${toolPrefix.replace(/[^A-Za-z0-9_]/g, '')}">`);
  return { contents: [{ uri: viewUri(view.name), mimeType: VIEW_MIME_TYPE, text, _meta: VIEW_RESOURCE_META }] };
}
