import type { BridgeError } from '../../../shared/bridge/contract';

/** Field path → what the desk should do, in plain words. */
export type FieldMessages = Record<string, string>;

/**
 * The host's field errors say "member_id must be at most 200 characters."; a person reads
 * "Member id must be at most 200 characters." Messages name what is allowed and never
 * repeat the value, so they are safe to show as they are once the field has its label.
 */
export function plainFieldErrors(error: Pick<BridgeError, 'errors'>, labels: Record<string, string>): FieldMessages {
  const messages: FieldMessages = {};
  for (const item of error.errors ?? []) {
    // insurance_carrier_ids.0 → insurance_carrier_ids: the form has one control for the list.
    const field = Object.hasOwn(labels, item.path) ? item.path : item.path.split('.')[0];
    if (messages[field]) continue;
    const label = labels[field] ?? 'This field';
    messages[field] = plainMessage(item.code, item.path, item.message, label);
  }
  return messages;
}

function plainMessage(code: string, path: string, message: string, label: string): string {
  switch (code) {
    case 'required':
      return `${label} is required.`;
    case 'not_found':
      return `${label}: that choice no longer exists. Choose again.`;
    case 'invalid_enum_value':
      return `${label}: choose one of the options in the list.`;
    case 'unknown_field':
      return `${label} cannot be saved here.`;
    default: {
      const rest = message.startsWith(path) ? message.slice(path.length).trim() : message;
      const sentence = rest.endsWith('.') ? rest : `${rest}.`;
      return message.startsWith(path) ? `${label} ${sentence}` : `${label}: ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`;
    }
  }
}

/** The message to show above a form: the host's own where no field is named. */
export function formMessage(error: BridgeError): string {
  if (error.code === 'validation_failed' && error.errors?.length) return 'Some fields need attention: see the messages below each one.';
  if (error.code === 'host_unreachable') return error.message;
  if (error.code === 'internal_error') return 'Something went wrong inside Coverdesk. Nothing you entered was lost; try again.';
  return error.message;
}
