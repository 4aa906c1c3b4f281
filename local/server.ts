import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { ALL_DOMAIN_TOOLS, ALL_SURFACE, completeFromCatalog, ENDPOINT_TOOLS } from '../functions/all-tools.js';
import { parseLocalTokens } from '../functions/platform/auth/authenticator.js';
import { loadConfig, type AppConfig } from '../functions/platform/config.js';
import { createHttpApp, type FetchHandler } from '../functions/mcp/http/app.js';
import { authorizationServerEdge } from '../functions/mcp/http/authorization-server-edge.js';
import { buildOpenApiDocument } from '../functions/mcp/http/openapi.js';
import { loadOrCreateMasterKey } from '../functions/platform/crypto/data-keys.js';
import { authorizationServerHandler } from '../functions/oauth/authorization-server.js';
import { keysFromSecret } from '../functions/oauth/signing-keys.js';
import { signInMethodFor } from '../functions/oauth/sign-in-method.js';
import { logger } from '../functions/platform/observability.js';
import { createServices, type Services } from '../functions/platform/services.js';
import { inProcessRunner } from '../functions/mcp/tools/contract-runner.js';
import { bootDynamoDbLocal, databaseDirOf, holdsDatabase, startDynamoDbLocal, type BootedDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local.js';
import { superviseEmulator } from './emulator-supervisor.js';
import { ensureTable } from './ensure-table.js';
import { loadSampleCatalogOnce, SAMPLE_DATA_DIR, type SampleProgress } from './sample-catalog.js';
import { stageFirstLoad } from './first-load.js';
import type { SampleSet } from '../functions/ingest/sources.js';
import { copyCachedDatabase, sampleDatabase } from './database-cache.js';
import { olderStorageFormat, setAside } from './storage-upgrade.js';
import { STORAGE_FORMAT } from '../functions/platform/store/storage-format.js';
import { createNodeServer } from './node-http.js';
import { webAppHandler } from './web-app.js';
import { builtViewPages } from '../web/views/build.js';

export interface LocalServer {
  url: string;
  token: string;
  tokenWasGenerated: boolean;
  config: AppConfig;
  services: Services;
  dynamoDbEndpoint: string;
  stop(): Promise<void>;
}

export interface LocalServerOptions {
  env?: Record<string, string | undefined>;
  /** Override the clock (tests). */
  now?: () => Date;
  /** Told about each sample file as it loads (npm start draws a progress bar with it). */
  sampleProgress?: (progress: SampleProgress) => void;
  /** DynamoDB Local already starting on the data directory's existing database (see run-server.ts). */
  dynamoDbLocal?: Promise<DynamoDbLocal>;
  /** Told what a person starting the server should know (a data directory rebuilt). */
  notice?: (message: string) => void;
  /** Told when the server's own DynamoDB Local died and could not be kept running (npm start then stops). */
  onEmulatorLost?: (reason: string) => void;
}

/** Starts (or reuses) DynamoDB Local, ensures the table, and serves the HTTP app. */
export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const env = options.env ?? process.env;
  const port = Number(env.PORT ?? 8787);
  const host = env.HOST ?? '127.0.0.1';
  const baseConfig = loadConfig({ ...env, TN_RUNTIME: 'local' });
  // A weak chosen token is refused before anything starts (the generated one is strong).
  parseLocalTokens(env, GENERATED_TOKEN_STANDS_IN);

  let dynamo: DynamoDbLocal | undefined;
  let endpoint = baseConfig.dynamoDbEndpoint;
  const sample: SampleSet | undefined = env.TN_SAMPLE_CATALOG === 'off' ? undefined : env.TN_SAMPLE_CATALOG === 'core' ? 'core' : 'full';
  if (!endpoint) {
    const dbDir = databaseDirOf(baseConfig.dataDir);
    const fillFresh = async (): Promise<DynamoDbLocal> => (sample ? await fillFreshDataDir(dbDir, baseConfig, sample, env, options.sampleProgress) : undefined) ?? (await startDynamoDbLocal({ dataDir: dbDir }));
    let started = options.dynamoDbLocal ? await options.dynamoDbLocal : await fillFresh();
    // A data directory of an older storage format holds nothing this version reads: rebuilt, the old database set aside.
    const older = await olderStorageFormat(started.endpoint, baseConfig).catch(async (error: unknown) => {
      await started.stop();
      throw error;
    });
    if (older !== undefined) {
      await started.stop();
      const kept = await setAside(dbDir, older);
      options.notice?.(
        `The data directory ${baseConfig.dataDir} held catalog storage format ${older}; this version stores format ${STORAGE_FORMAT} and reads no older one. ` +
          `It was rebuilt${sample ? ' from the sample catalog' : ''}; the old database is kept in ${kept} (sessions, keys and settings in it are not carried over).`,
      );
      started = await fillFresh();
    }
    dynamo = started;
    endpoint = started.endpoint;
  }
  const emulator = dynamo
    ? superviseEmulator(dynamo, {
        restart: (port) => startDynamoDbLocal({ dataDir: databaseDirOf(baseConfig.dataDir), port }),
        giveUp: (reason) => {
          logger.error('DynamoDB Local is gone', { reason });
          options.onEmulatorLost?.(reason);
        },
      })
    : undefined;
  // Listen first: the authorization server's issuer is this server's own URL, port included.
  let app: FetchHandler | undefined;
  const server = createNodeServer((request) => (app ? app(request) : Promise.resolve(Response.json({ error: 'starting' }, { status: 503 }))));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
    const address = server.address() as AddressInfo;
    const urlHost = host.includes(':') ? `[${host}]` : host;
    const url = `http://${urlHost === '0.0.0.0' || urlHost === '[::]' ? '127.0.0.1' : urlHost}:${address.port}`;
    // The emulator this process started is locked to it: no other server answers from its table.
    const config: AppConfig = { ...baseConfig, dynamoDbEndpoint: endpoint, oauthIssuer: baseConfig.oauthIssuer ?? url, soleServer: emulator !== undefined };
    const { token, generated } = await resolveLocalToken(config.dataDir, env.TN_LOCAL_TOKEN);
    // Derived from the local master key: tokens issued before a restart stay valid after it.
    const oauthKeys = await keysFromSecret(await loadOrCreateMasterKey(config.dataDir));
    const services = await createServices(config, {
      localTokens: parseLocalTokens({ ...env, TN_LOCAL_TOKEN: token }, token),
      oauthJwks: oauthKeys.publicJwks,
      now: options.now,
    });
    await ensureTable(services.store.client, config.tableName);
    const sampleLoad = new AbortController();
    let background: Promise<unknown> | undefined;
    if (sample === 'core') {
      await loadSampleCatalogOnce(services.store, { set: 'core', onProgress: options.sampleProgress });
    } else if (sample) {
      // Serving starts once the files both samples share are in; the large all-department files load
      // behind it, each landing as a new catalog version (a first start answers in about a minute).
      await loadSampleCatalogOnce(services.store, { set: 'common', onProgress: options.sampleProgress });
      background = loadSampleCatalogOnce(services.store, { set: 'full', onProgress: options.sampleProgress, signal: sampleLoad.signal }).catch((error: unknown) => {
        if (!sampleLoad.signal.aborted) logger.error('sample catalog load failed', { error: error instanceof Error ? error.message : String(error) });
      });
    }

    const allowedHostnames = [...localhostAllowedHostnames(), ...(host === '0.0.0.0' || host === '::' ? [] : [host]), ...config.allowedHosts];
    const authorizationServer = authorizationServerEdge(authorizationServerHandler({
      issuer: config.oauthIssuer!,
      store: services.store,
      keys: oauthKeys,
      runtime: 'local',
      resourceBases: [...allowedHostnames.map((name) => `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${address.port}`), ...(config.publicBaseUrl ? [config.publicBaseUrl] : [])],
      extraRedirectUris: config.oauthRedirectUris,
      signIn: signInMethodFor(config, services.authenticator),
    }), { allowedHostnames, allowedOriginHostnames: allowedHostnames });
    app = createHttpApp({
      services,
      definitions: ALL_DOMAIN_TOOLS,
      endpointTools: ENDPOINT_TOOLS,
      // One process holds every domain: a tool's calls to another domain's tools run here too.
      contractRunner: inProcessRunner(ALL_DOMAIN_TOOLS),
      // MCP Apps views are built on their first read (esbuild, ~0.2 s) and kept for the process.
      surface: { ...ALL_SURFACE, viewPages: builtViewPages() },
      complete: completeFromCatalog,
      allowedHostnames,
      authorizationServer,
      openApiDocument: buildOpenApiDocument,
      webApp: webAppHandler(),
    });
    return {
      url,
      token,
      tokenWasGenerated: generated,
      config,
      services,
      dynamoDbEndpoint: endpoint,
      async stop() {
        // A file being loaded is left unmarked and loads again, idempotently, on the next start.
        sampleLoad.abort();
        void background;
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        services.store.doc.destroy();
        await emulator?.stop();
      },
    };
  } catch (error) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await emulator?.stop();
    throw error;
  }
}

/**
 * A data directory without a database gets the sample catalog before serving: a copy of the database a
 * first start on this machine built (cached per sample, storage format and loading code), or else the whole
 * sample loaded in a staged copy (see stageFirstLoad), search index included, which is then cached. The
 * staged load comes back with its emulator serving the moved-in file: that emulator's JVM boots while the
 * load runs. Anything that goes wrong leaves the directory as it was (undefined), and the usual load
 * fills it instead.
 */
async function fillFreshDataDir(dbDir: string, config: AppConfig, set: SampleSet, env: Record<string, string | undefined>, onProgress?: (progress: SampleProgress) => void): Promise<DynamoDbLocal | undefined> {
  if (holdsDatabase(dbDir)) return undefined;
  const database = await sampleDatabase({ set, tableName: config.tableName, sampleDir: SAMPLE_DATA_DIR, env }).catch(() => undefined);
  if (database?.cached) {
    try {
      await copyCachedDatabase(database.cached, dbDir);
      return await startDynamoDbLocal({ dataDir: dbDir });
    } catch (error) {
      logger.warn('cached sample database not used; loading the sample', { error: messageOf(error) });
    }
  }
  let serving: Promise<BootedDynamoDbLocal> | undefined;
  let outcome: Awaited<ReturnType<typeof stageFirstLoad>> | undefined;
  try {
    outcome = await stageFirstLoad(dbDir, {
      region: config.region,
      tableName: config.tableName,
      ...(database ? { cache: { key: database.key, env } } : {}),
      load: async (store) => {
        serving = bootDynamoDbLocal({ dataDir: dbDir, databaseArrivesLater: true });
        serving.catch(() => undefined); // awaited below; a failed boot only costs the overlap
        await ensureTable(store.client, config.tableName);
        await loadSampleCatalogOnce(store, { set, onProgress });
      },
    });
  } catch (error) {
    logger.warn('staged first load failed; loading in place', { error: messageOf(error) });
  }
  if (outcome === 'staged') {
    try {
      return await (await serving!).open();
    } catch (error) {
      // The staged database is in place and every file is marked loaded: only the early emulator failed.
      logger.warn('the loaded database is in place; the emulator booted beside the load could not serve it, starting it again', { error: messageOf(error) });
    }
  }
  await (await serving?.catch(() => undefined))?.stop();
  return undefined;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Where TN_LOCAL_TOKEN is unset, the generated token (strong by construction) is checked later. */
const GENERATED_TOKEN_STANDS_IN = 'tnl_generated-token-placeholder';

/** An unset TN_LOCAL_TOKEN is generated once and kept in TN_DATA_DIR so client configs survive restarts. */
async function resolveLocalToken(dataDir: string, configured: string | undefined): Promise<{ token: string; generated: boolean }> {
  if (configured) return { token: configured, generated: false };
  const file = path.join(dataDir, 'local-token');
  try {
    return { token: (await readFile(file, 'utf8')).trim(), generated: true };
  } catch {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const token = `tnl_${randomBytes(24).toString('base64url')}`;
    await writeFile(file, token, { mode: 0o600 });
    return { token, generated: true };
  }
}

/** Which model answers tutoring asks, without the key. */
function tutorModelLine(config: AppConfig): string {
  const llm = config.tutor.defaultLlm;
  if (!llm) return "each user's own key (tn_user_byok_add); set TN_DEFAULT_LLM_* for an operator default and anonymous sessions";
  return `${llm.provider} ${llm.model}${llm.baseUrl ? ` at ${llm.baseUrl}` : ''} by default (users' own keys first); anonymous sessions on`;
}

export function connectionBanner(server: Pick<LocalServer, 'url' | 'token' | 'tokenWasGenerated' | 'config'>): string {
  const mcpUrl = `${server.url}/mcp`;
  const claudeDesktop = {
    mcpServers: {
      'tutor-nexus': {
        command: 'npx',
        args: ['-y', 'mcp-remote', mcpUrl, '--allow-http', '--header', `Authorization: Bearer ${server.token}`],
      },
    },
  };
  return [
    '',
    `Tutor Nexus is running at ${server.url}`,
    `  MCP (every tool):   POST ${mcpUrl}`,
    `  MCP by domain:      POST ${mcpUrl}/{user|course|transfer|session}`,
    `  REST twins:         POST ${server.url}/v1/tools/{toolName}   OpenAPI: ${server.url}/openapi.json`,
    `  Data directory:     ${server.config.dataDir}`,
    `  Tutor model:        ${tutorModelLine(server.config)}`,
    '',
    `Local access token${server.tokenWasGenerated ? ' (generated; set TN_LOCAL_TOKEN to choose your own)' : ''}:`,
    `  ${server.token}`,
    '',
    'Claude Desktop (claude_desktop_config.json):',
    JSON.stringify(claudeDesktop, null, 2),
    '',
    'Claude Code (signs in through your browser: paste the token above on the sign-in page):',
    `  claude mcp add --transport http tutor-nexus ${mcpUrl}`,
    `  or with the token directly: claude mcp add --transport http tutor-nexus ${mcpUrl} --header "Authorization: Bearer ${server.token}"`,
    '',
    'MCP Inspector (v2 needs Node 22.19+; with an older Node first on PATH, npx finds an Inspector without --header):',
    `  npx @modelcontextprotocol/inspector@2  →  Transport "Streamable HTTP", URL ${mcpUrl},`,
    `  then "Quick OAuth Flow" (sign in with the token above) or header Authorization: Bearer ${server.token}`,
    '',
    `OAuth sign-in for connectors: ${server.config.oauthIssuer ?? server.url}/.well-known/oauth-authorization-server`,
    '',
    'Press Ctrl-C to stop (DynamoDB Local stops with it).',
    '',
  ].join('\n');
}
