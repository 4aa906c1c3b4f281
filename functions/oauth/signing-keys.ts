import { createHmac, createPrivateKey, createPublicKey, type JsonWebKey } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';

/** PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface AuthorizationServerKeys {
  /** The private signing key, as oidc-provider's `jwks` wants it. */
  signing: JsonWebKey & { kid: string; alg: string; use: string };
  /** What resource servers verify access tokens with. */
  publicJwks: { keys: (JsonWebKey & { kid: string; alg: string; use: string })[] };
  /** Keys oidc-provider signs its cookies with. */
  cookieKeys: string[];
}

/**
 * Every key the authorization server needs, derived from one secret (a Secrets Manager value in AWS,
 * the local master key on one machine): nothing to generate at deploy time, and rotating the secret
 * rotates them all. Ed25519 because a seed is its private key.
 */
export async function keysFromSecret(secret: string | Buffer): Promise<AuthorizationServerKeys> {
  const derive = (label: string) => createHmac('sha256', secret).update(label).digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, derive('oauth-signing-key')]), format: 'der', type: 'pkcs8' });
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const kid = await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: publicJwk.x! });
  const common = { kid, alg: 'EdDSA', use: 'sig' };
  return {
    signing: { ...privateKey.export({ format: 'jwk' }), ...common },
    publicJwks: { keys: [{ ...publicJwk, ...common }] },
    cookieKeys: [derive('oauth-cookie-key').toString('base64url')],
  };
}
