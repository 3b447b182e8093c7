import { StaffFilePassphrase, StaffName, StaffSecret } from '../../../shared/bridge/staff-contract';
import type { z } from 'zod';
import type { FieldMessages } from '../forms/field-errors';

/** The labels the staff forms show: the host's field errors are worded with them too. */
export const STAFF_LABELS = { name: 'Name', role: 'Role', pin: 'PIN or passphrase', pin_confirm: 'PIN or passphrase again', disabled: 'Disabled', passphrase: 'File passphrase', passphrase_confirm: 'File passphrase again', data_base64: 'Staff file' };

/** The first problem of `value` under `schema`, worded with the field's label; undefined when it is allowed. */
function problem(schema: z.ZodType, value: string, label: string): string | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : `${label} ${parsed.error.issues[0]?.message ?? 'is not allowed'}.`;
}

/**
 * What the desk checks before sending a name and a PIN: the host's own rules (the zod schemas
 * the host parses with), and a PIN typed the same twice: a mistyped PIN nobody knows would
 * lock its person out. The host checks again.
 */
export function staffFieldProblems(fields: { name?: string; pin?: string; pin_confirm?: string }): FieldMessages {
  const problems: FieldMessages = {};
  if (fields.name !== undefined) {
    const name = problem(StaffName, fields.name, STAFF_LABELS.name);
    if (name) problems.name = name;
  }
  if (fields.pin !== undefined) {
    const pin = problem(StaffSecret, fields.pin, STAFF_LABELS.pin);
    if (pin) problems.pin = pin;
    else if (fields.pin !== fields.pin_confirm) problems.pin_confirm = `${STAFF_LABELS.pin_confirm} must be the same as the first: type it again.`;
  }
  return problems;
}

/** The staff file's passphrase, typed twice when it is chosen (the export). */
export function passphraseProblems(passphrase: string, confirm?: string): FieldMessages {
  const first = problem(StaffFilePassphrase, passphrase, STAFF_LABELS.passphrase);
  if (first) return { passphrase: first };
  if (confirm !== undefined && confirm !== passphrase) return { passphrase_confirm: `${STAFF_LABELS.passphrase_confirm} must be the same as the first: type it again.` };
  return {};
}
