import { readFile } from 'node:fs/promises';

/** The file beside a deployed router's bundle that holds its `/openapi.json`, generated at deploy time. */
export const OPENAPI_FILE = 'openapi.json';

/**
 * `/openapi.json` from the document generated at deploy time (functions/router/openapi-document.ts)
 * and written beside the bundle: the generator and zod-to-openapi never ship in the function, and a
 * request that never asks for the document never reads it. `servers` names the deployment as the
 * request reached it, as the generator would have.
 */
export function openApiDocumentBeside(bundleUrl: string): (registry: unknown, baseUrl: string) => Promise<Record<string, unknown>> {
  let document: Promise<Record<string, unknown>> | undefined;
  return async (_registry, baseUrl) => {
    document ??= readFile(new URL(`./${OPENAPI_FILE}`, bundleUrl), 'utf8').then((text) => JSON.parse(text) as Record<string, unknown>);
    // A failed read is tried again next time rather than remembered.
    const generated = await document.catch((error: unknown) => {
      document = undefined;
      throw error;
    });
    return withServer(generated, baseUrl);
  };
}

/** The document with one server, where the generator puts it (after `info`). */
export function withServer(document: Record<string, unknown>, serverUrl: string): Record<string, unknown> {
  const { openapi, info, servers: _generated, ...rest } = document;
  return { openapi, info, servers: [{ url: serverUrl }], ...rest };
}
