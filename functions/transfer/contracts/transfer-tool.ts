/**
 * Common metadata of the transfer tools (seed 001): public and cacheable. Bindings key cached results
 * by the catalog version (ingestion bumps it), which is behaviour and so not part of the contract.
 */
export const TRANSFER_TOOL = {
  domain: 'transfer' as const,
  version: '1.0.0',
  permissions: [],
  access: 'public' as const,
  cacheable: true,
  cacheTTL: 300,
  idempotent: true,
};
