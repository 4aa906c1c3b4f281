import { createHash } from 'node:crypto';
import type { JSONWebKeySet } from 'jose';
import type { AppConfig } from './config.js';
import { createAuthenticator, type Authenticator, type LocalToken } from './auth/authenticator.js';
import { LocalDataKeyProvider, loadOrCreateMasterKey, type DataKeyProvider } from './crypto/data-keys.js';
import { createStore, type Store } from './store/dynamo-client.js';
import { CursorCodec } from './cursor-codec.js';
import { ResultCache } from './result-cache.js';

/** Long-lived clients shared by every request of a warm process. */
export interface Services {
  config: AppConfig;
  store: Store;
  dataKeys: DataKeyProvider;
  cursors: CursorCodec;
  authenticator: Authenticator;
  cache: ResultCache;
  now(): Date;
}

export async function createServices(
  config: AppConfig,
  options: { localTokens?: LocalToken[]; oauthJwks?: JSONWebKeySet; now?: () => Date; kmsDataKeys?: (keyId: string) => DataKeyProvider } = {},
): Promise<Services> {
  const store = createStore(config);
  let dataKeys: DataKeyProvider;
  let cursorSecret: Buffer;
  if (config.runtime === 'aws') {
    if (!config.cursorSecret) throw new Error('TN_CURSOR_SECRET is required in AWS');
    // Only functions that seal or open BYOK keys are given a key; the others must never need one.
    dataKeys = config.kmsKeyId && options.kmsDataKeys ? options.kmsDataKeys(config.kmsKeyId) : unavailableDataKeys;
    cursorSecret = Buffer.from(config.cursorSecret);
  } else {
    const masterKey = await loadOrCreateMasterKey(config.dataDir);
    dataKeys = new LocalDataKeyProvider(masterKey);
    // Derived, not reused: the cursor key can never decrypt anything.
    cursorSecret = config.cursorSecret ? Buffer.from(config.cursorSecret) : createHash('sha256').update('cursor-signing').update(masterKey).digest();
  }
  const now = options.now ?? (() => new Date());
  return {
    config,
    store,
    dataKeys,
    cursors: new CursorCodec(cursorSecret),
    authenticator: createAuthenticator({ config, store, localTokens: options.localTokens, oauthJwks: options.oauthJwks, now }),
    cache: new ResultCache(),
    now,
  };
}

const unavailableDataKeys: DataKeyProvider = {
  id: 'kms',
  generateDataKey: () => Promise.reject(new Error('this function has no KMS key (TN_KMS_KEY_ID)')),
  decryptDataKey: () => Promise.reject(new Error('this function has no KMS key (TN_KMS_KEY_ID)')),
};
