import { readFile } from 'node:fs/promises';
import type { ViewPages } from './view-contract.js';

/** The folder beside a deployed function's bundle that its views are written to at deploy time. */
export const VIEW_PAGES_DIR = 'views';

/**
 * Views built at deploy time and written beside the function's bundle (`views/<name>.html`): read on
 * a view's first resources/read and kept, so a request that never asks for one never pays for it.
 */
export function viewPagesBeside(bundleUrl: string): ViewPages {
  const pages = new Map<string, Promise<string>>();
  return (name) => {
    if (!/^[a-z]+(-[a-z]+)*$/.test(name)) return Promise.reject(new Error(`not a view name: ${name}`));
    let page = pages.get(name);
    if (!page) {
      page = readFile(new URL(`./${VIEW_PAGES_DIR}/${name}.html`, bundleUrl), 'utf8');
      // A failed read is tried again next time rather than remembered.
      page.catch(() => pages.delete(name));
      pages.set(name, page);
    }
    return page;
  };
}
