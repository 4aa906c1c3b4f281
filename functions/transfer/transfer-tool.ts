import { catalogVersion } from '../course/course-lookup.js';

/** Common metadata of the transfer tools (seed 001): public, cacheable, keyed by catalog version. */
export const TRANSFER_TOOL = {
  domain: 'transfer' as const,
  version: '1.0.0',
  permissions: [],
  access: 'public' as const,
  cacheable: true,
  cacheTTL: 300,
  cacheVersion: catalogVersion,
  idempotent: true,
};
