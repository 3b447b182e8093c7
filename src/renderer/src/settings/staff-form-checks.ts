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
 * A secret chosen by typing it twice (a PIN, a file passphrase): the host's rule (its zod
 * schema) on the first, worded with its label; then the same again in the second, when one is
 * asked for. A mistyped secret nobody knows would lock its person (or its file) out.
 */
export function typedTwiceProblems(schema: z.ZodType, first: string, again: string | undefined, wording: { label: string; differ: string }): { first?: string; again?: string } {
  const wrong = problem(schema, first, wording.label);
  if (wrong) return { first: wrong };
  if (again !== undefined && again !== first) return { again: wording.differ };
  return {};
}

/** A new PIN or passphrase (first start, choosing one's own): the host's rule, typed the same twice, so the person hears why at once. */
export function newPinProblems(pin: string, confirm: string): { first?: string; again?: string } {
  return typedTwiceProblems(StaffSecret, pin, confirm, { label: 'The PIN', differ: 'The two PINs differ: type the same PIN twice.' });
}

/**
 * What the desk checks before sending a name and a PIN: the host's own rules (the zod schemas
 * the host parses with), and a PIN typed the same twice. The host checks again.
 */
export function staffFieldProblems(fields: { name?: string; pin?: string; pin_confirm?: string }): FieldMessages {
  const problems: FieldMessages = {};
  if (fields.name !== undefined) {
    const name = problem(StaffName, fields.name, STAFF_LABELS.name);
    if (name) problems.name = name;
  }
  if (fields.pin !== undefined) {
    const { first, again } = typedTwiceProblems(StaffSecret, fields.pin, fields.pin_confirm ?? '', { label: STAFF_LABELS.pin, differ: `${STAFF_LABELS.pin_confirm} must be the same as the first: type it again.` });
    if (first) problems.pin = first;
    if (again) problems.pin_confirm = again;
  }
  return problems;
}

/** The staff file's passphrase, typed twice when it is chosen (the export). */
export function passphraseProblems(passphrase: string, confirm?: string): FieldMessages {
  const { first, again } = typedTwiceProblems(StaffFilePassphrase, passphrase, confirm, {
    label: STAFF_LABELS.passphrase,
    differ: `${STAFF_LABELS.passphrase_confirm} must be the same as the first: type it again.`,
  });
  if (first) return { passphrase: first };
  if (again) return { passphrase_confirm: again };
  return {};
}
