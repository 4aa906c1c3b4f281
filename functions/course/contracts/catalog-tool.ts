import * as z from 'zod/v4';

export const CourseRefInput = z
  .string()
  .min(3)
  .max(64)
  .describe('Course reference "institution:CODE", e.g. "sfu:CMPT 225" or "langara:CPSC 1150"; loose forms like "SFU:cmpt225" work');

/**
 * Common metadata of the catalog tools (seed 001): public and cacheable. Bindings key cached results
 * by the catalog version (bindCatalogTool), which is behaviour and so not part of the contract.
 */
export const CATALOG_TOOL = {
  domain: 'course' as const,
  version: '1.0.0',
  category: 'query' as const,
  permissions: [],
  access: 'public' as const,
  cacheable: true,
  cacheTTL: 300,
  idempotent: true,
};
