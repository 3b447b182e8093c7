import { z } from 'zod';
import { DateOfBirth, Id, NamePart, SyncInfo, Timestamp } from './common';

export const PatientCreate = z.strictObject({
  first_name: NamePart,
  last_name: NamePart,
  date_of_birth: DateOfBirth,
});
export type PatientCreate = z.infer<typeof PatientCreate>;

export const Patient = z.object({
  id: Id,
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: z.string(),
  created_at: Timestamp,
  sync: SyncInfo.optional(),
});
export type Patient = z.infer<typeof Patient>;
