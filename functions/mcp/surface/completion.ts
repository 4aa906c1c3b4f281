import type { Services } from '../../platform/services.js';
import type { CompletionKind } from './surface-contract.js';

export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/**
 * Completes one argument. The catalog's completer lives in the course domain (it needs the search
 * index); the AWS router forwards to the course function instead of holding the index itself.
 */
export type Completer = (services: Services, kind: CompletionKind, value: string, context: Record<string, string>) => Promise<Completion>;
