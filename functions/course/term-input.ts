import * as z from 'zod/v4';
import { parseTerm, termOrder } from '../catalog/terms.js';

export const TermInput = z
  .string()
  .min(4)
  .max(24)
  .refine((value) => parseTerm(value) !== undefined, 'must be a term like "2025-fall", "Fall 2025", Langara "202530" or UBC "2024W"')
  .transform((value) => parseTerm(value)!)
  .describe('Term: "2025-fall", "2026-spring", "2026-summer" (also "Fall 2025", Langara "202530", UBC winter session "2024W")');

export const newestFirst = (a: string, b: string) => termOrder(b) - termOrder(a);
