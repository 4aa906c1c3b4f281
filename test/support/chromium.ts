import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (installed by .ci/run and `npm run setup:browser`); Playwright's own downloads are not used. */
const CHROMIUM_PATH = process.env.TN_CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: run \`npm run setup:browser\` (apt-get install chromium) or set TN_CHROMIUM_PATH`);
  }
  // The sandbox needs user namespaces a root container does not offer.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}
