import type { Domain } from '../tools/define-tool.js';

export interface Icon {
  src: string;
  mimeType: string;
  sizes: string[];
}

/**
 * Inline SVG data URIs: a host shows them without fetching anything (no network, no tracking, nothing
 * to host), and they cost a few hundred bytes per list answer.
 */
function svgIcon(body: string, fill: string): Icon[] {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="5" fill="${fill}"/>${body}</svg>`;
  return [{ src: `data:image/svg+xml;base64,${btoa(svg)}`, mimeType: 'image/svg+xml', sizes: ['any'] }];
}

const STROKE = 'fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"';

/** A graduation cap: the server itself. */
export const SERVER_ICONS = svgIcon(`<path ${STROKE} d="M3 10l9-4 9 4-9 4-9-4zM7 12v4c3 2 7 2 10 0v-4"/>`, '#1f4e79');

export const DOMAIN_ICONS: Record<Domain, Icon[]> = {
  // A speech bubble: tutoring conversations.
  session: svgIcon(`<path ${STROKE} d="M5 6h14v9H10l-4 3v-3H5z"/>`, '#2e7d32'),
  // An open book: the catalog.
  course: svgIcon(`<path ${STROKE} d="M4 6c3-1 6-1 8 1 2-2 5-2 8-1v12c-3-1-6-1-8 1-2-2-5-2-8-1zM12 7v12"/>`, '#1565c0'),
  // Two arrows: credit moving between institutions.
  transfer: svgIcon(`<path ${STROKE} d="M5 9h13l-3-3M19 15H6l3 3"/>`, '#ef6c00'),
  // A person: the user's own settings.
  user: svgIcon(`<circle ${STROKE} cx="12" cy="9" r="3.5"/><path ${STROKE} d="M5 19c1-4 13-4 14 0"/>`, '#6a1b9a'),
  // A magnifier: discovery.
  tools: svgIcon(`<circle ${STROKE} cx="11" cy="11" r="5"/><path ${STROKE} d="M15 15l4 4"/>`, '#455a64'),
};
