import * as z from 'zod/v4';

/** An institution as people type it; the bindings resolve it or answer NOT_FOUND naming the known ones. */
export const InstitutionInput = (role: string) => z.string().min(2).max(80).describe(`${role} institution: slug, code or name ("sfu", "LANG", "Langara College")`);
