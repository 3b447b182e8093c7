import { z } from 'zod';
import { DateOfBirth, Id, NamePart, Status, Timestamp } from './common';
import { ExtractedFields } from './extraction';
import { ObjectKey } from './photo';

/**
 * The sidecar a scan-to-folder scanner may drop beside a card (`NAME.json`): whose card it
 * is, by id or by name and date of birth.
 */
export const InboxSidecar = z.union([
  z.strictObject({ patient_id: Id }),
  z.strictObject({ first_name: NamePart, last_name: NamePart, date_of_birth: DateOfBirth }),
]);
export type InboxSidecar = z.infer<typeof InboxSidecar>;

/** A scanned card waiting in the desk's inbox (Coverdesk's own, not part of /v1). */
export const InboxItem = z.object({
  id: Id,
  front_photo_object_key: ObjectKey,
  back_photo_object_key: ObjectKey.optional(),
  patient_id: Id.optional(),
  patient_first_name: z.string().optional(),
  patient_last_name: z.string().optional(),
  patient_date_of_birth: z.string().optional(),
  extraction_status: Status,
  extraction_fields: ExtractedFields.optional(),
  extraction_failure_reason: z.string().optional(),
  state: z.enum(['new', 'used', 'dismissed']),
  insurance_card_id: Id.optional(),
  created_at: Timestamp,
});
export type InboxItem = z.infer<typeof InboxItem>;
