import * as z from 'zod/v4';

export const PdfRowSchema = z.object({
  subject: z.string().regex(/^[A-Z]{2,5}$/),
  course_code: z.union([z.number().int().positive(), z.string().regex(/^\d{3,4}[A-Z]?$/)]),
  source: z.string().regex(/^[A-Z]{2,5}$/),
  destination: z.string().regex(/^[A-Z]{2,5}$/),
  credit: z.string().trim().min(1),
  effective_start: z.string(),
  effective_end: z.string(),
});

export const ApiRecordSchema = z.object({
  Id: z.union([z.number().int(), z.string().min(1)]),
  SndrInstitutionID: z.number().int().nullish(),
  SndrInstitutionCode: z.string().min(1),
  SndrSubjectCode: z.string().min(1),
  SndrCourseNumber: z.union([z.string().min(1), z.number()]),
  SndrCourseCredit: z.number().nullish(),
  RcvrInstitutionCode: z.string().min(1),
  Detail: z.string().trim().min(1),
  Condition: z.string().nullish(),
  StartDate: z.string(),
  EndDate: z.string().nullish(),
});

export const EnvelopeSchema = z.object({
  courses: z.array(z.object({ agreements: z.array(z.unknown()) }).catchall(z.unknown())),
  currentPage: z.coerce.number().int(),
  totalPages: z.number().int(),
  totalAgreements: z.number().int(),
  pageLength: z.number().int(),
});
