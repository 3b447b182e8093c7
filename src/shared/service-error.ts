import type { z } from 'zod';
import { ERROR_CODES, type ErrorBody, type ErrorCode, type ErrorType, type FieldError } from './contract/errors';

/**
 * The one typed exception of the service layer. Every transport (HTTP, IPC, the web
 * bridge) turns it into the error envelope, so a code set here reaches the caller intact.
 * Messages never carry field values: they may be PHI.
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly type: ErrorType;

  constructor(
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly errors?: FieldError[],
    options: { status?: number; type?: ErrorType; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    const known = ERROR_CODES[code as ErrorCode];
    this.status = options.status ?? known?.status ?? 500;
    this.type = options.type ?? known?.type ?? 'api_error';
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  readonly retryAfterSeconds?: number;

  toBody(requestId?: string): ErrorBody {
    return {
      type: this.type,
      code: this.code,
      message: this.message,
      ...(this.errors?.length ? { errors: this.errors } : {}),
      ...(requestId ? { request_id: requestId } : {}),
    };
  }

  static fromBody(body: ErrorBody, status: number, retryAfterSeconds?: number): ServiceError {
    return new ServiceError(body.code, body.message, body.errors, { status, type: body.type, retryAfterSeconds });
  }
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}

export function validationFailed(errors: FieldError[]): ServiceError {
  const fields = [...new Set(errors.map((e) => e.path || '(body)'))].join(', ');
  return new ServiceError('validation_failed', `The request is not valid: check ${fields}.`, errors);
}

export function referenceNotFound(path: string, what: string, id: string): FieldError {
  return { path, code: 'not_found', message: `No ${what} with id ${id} exists.` };
}

export function notFound(what: string, id: string): ServiceError {
  return new ServiceError('resource_not_found', `No ${what} with id ${id} exists.`);
}

/** Whether the value at `path` is absent from the input (zod does not report inputs). */
function isMissing(input: unknown, path: PropertyKey[]): boolean {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return true;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value === undefined;
}

/** Turns zod issues into field errors that say what is allowed, without echoing values. */
export function fieldErrorsFromZod(error: z.ZodError, input: unknown): FieldError[] {
  // One message per field: the first problem is the one to fix first.
  const seen = new Set<string>();
  const issues = error.issues.filter((issue) => {
    const key = issue.code === 'unrecognized_keys' ? `${issue.path.join('.')}+${issue.keys.join(',')}` : issue.path.join('.');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // One error per unknown field, so each names its own path.
  return issues.flatMap((issue): z.core.$ZodIssue[] => (issue.code === 'unrecognized_keys' ? issue.keys.map((key) => ({ ...issue, keys: [key] })) : [issue])).map((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.path.length > 0 && (issue.code === 'invalid_type' || issue.code === 'invalid_value') && isMissing(input, issue.path)) {
      return { path, code: 'required', message: `${path} is required.` };
    }
    switch (issue.code) {
      case 'invalid_type':
        return { path, code: 'invalid_type', message: `${path || 'The body'} must be ${article(issue.expected)}.` };
      case 'invalid_value': {
        const allowed = issue.values.map(String);
        const shown = allowed.length > 12 ? `${allowed.slice(0, 12).join(', ')}, … (${allowed.length} values; see the contract)` : allowed.join(', ');
        return { path, code: 'invalid_enum_value', message: `${path} must be one of: ${shown}.` };
      }
      case 'unrecognized_keys': {
        const field = [path, issue.keys[0]].filter(Boolean).join('.');
        return { path: field, code: 'unknown_field', message: `${field} is not a field of this request: remove it.` };
      }
      case 'too_small':
        return {
          path,
          code: 'too_small',
          message:
            issue.origin === 'string'
              ? `${path} must not be empty.`
              : `${path} must be at least ${String(issue.minimum)}.`,
        };
      case 'too_big':
        return {
          path,
          code: 'too_big',
          message:
            issue.origin === 'string'
              ? `${path} must be at most ${String(issue.maximum)} characters.`
              : issue.origin === 'array'
                ? `${path} must have at most ${String(issue.maximum)} items.`
                : `${path} must be at most ${String(issue.maximum)}.`,
        };
      default:
        return { path, code: 'invalid_format', message: `${path || 'The body'} ${issue.message}.`.replace(/\.\.$/, '.') };
    }
  });
}

function article(expected: string): string {
  if (expected === 'object') return 'a JSON object';
  if (expected === 'array') return 'an array';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** Parses with a schema or throws a 422 that names every offending field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationFailed(fieldErrorsFromZod(result.error, input));
  return result.data;
}
