import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import { expect } from 'vitest';
import { openApiDocument, type OpenApiDocument } from '@src/shared/contract/openapi-document';
import type { HttpAnswer } from './http-request';

const DOC_ID = 'https://coverdesk.invalid/v1/openapi.json';

type Json = Record<string, unknown>;

/** `~` and `/` escaped for a JSON pointer segment. */
const segment = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

export interface AnswerCheck {
  /** The document's path template the request matched, or null for an unknown route. */
  template: string | null;
  operationId: string | null;
  problems: string[];
}

/**
 * Checks real answers against the OpenAPI document with Ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1): the status must be documented for the operation, the body must
 * match the documented schema for its content type, documented headers must match theirs
 * and required ones be there. Requests outside the document must be the documented 404/405.
 */
export function createAnswerValidator(doc: OpenApiDocument = openApiDocument()) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc as unknown as Json, DOC_ID);
  const compiled = new Map<string, ValidateFunction>();
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));

  function validatorAt(pointer: string[]): ValidateFunction {
    const ref = `${DOC_ID}#/${pointer.map(segment).join('/')}`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    return validate;
  }

  function schemaProblems(pointer: string[], value: unknown, what: string): string[] {
    const validate = validatorAt(pointer);
    if (validate(value)) return [];
    return [`${what}: ${ajv.errorsText(validate.errors, { dataVar: what })}`];
  }

  /** A response object and where it lives, following one `$ref`. */
  function responseAt(pointer: string[], response: Json): { pointer: string[]; response: Json } {
    const target = response.$ref;
    if (typeof target !== 'string') return { pointer, response };
    const [, , kind, name] = target.split('/');
    return { pointer: ['components', kind, name], response: (doc.components as unknown as Record<string, Record<string, Json>>)[kind][name] };
  }

  function checkResponse(pointer: string[], raw: Json, answer: HttpAnswer): string[] {
    const { pointer: at, response } = responseAt(pointer, raw);
    const problems: string[] = [];
    for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const resolved = responseAt([...at, 'headers', name], header);
      const value = answer.headers[name.toLowerCase()];
      if (value === undefined) {
        if (resolved.response.required) problems.push(`header ${name} is required`);
        continue;
      }
      const schema = resolved.response.schema as Json;
      const typed = schema.type === 'integer' && /^-?\d+$/.test(String(value)) ? Number(value) : value;
      problems.push(...schemaProblems([...resolved.pointer, 'schema'], typed, `header ${name}`));
    }
    const content = response.content as Record<string, Json> | undefined;
    if (!content) {
      if (answer.text.length > 0) problems.push('a body where the document declares none');
      return problems;
    }
    const type = String(answer.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!(type in content)) return [...problems, `content type "${type}" is not one of ${Object.keys(content).join(', ')}`];
    if (type === 'application/json') {
      if (answer.json === undefined) return [...problems, 'the body is not JSON'];
      problems.push(...schemaProblems([...at, 'content', type, 'schema'], answer.json, 'body'));
    }
    return problems;
  }

  return function check(method: string, path: string, answer: HttpAnswer): AnswerCheck {
    const pathname = path.split('?')[0];
    const match = templates.find(({ pattern }) => pattern.test(pathname));
    const operation = match ? doc.paths[match.template][method.toLowerCase()] : undefined;
    if (!match || !operation) {
      // Outside the document: only the documented refusals may answer.
      // Routes only some servers have (`x-coverdesk-only`) are unknown, so 404, where they are missing.
      const optional = match && Object.values(doc.paths[match.template]).some((op) => op['x-coverdesk-only']) && answer.status === 404;
      const expected = match && !optional ? { status: 405, name: 'MethodNotAllowed' } : { status: 404, name: 'NotFound' };
      if (answer.status !== expected.status) {
        return { template: match?.template ?? null, operationId: null, problems: [`${method} ${pathname} is not in the document: expected ${expected.status}, got ${answer.status}`] };
      }
      const problems = checkResponse(['components', 'responses', expected.name], doc.components.responses[expected.name], answer);
      if (expected.status === 405 && !answer.headers.allow) problems.push('405 without an Allow header');
      return { template: match?.template ?? null, operationId: null, problems };
    }
    const documented = operation.responses[String(answer.status)];
    if (!documented) {
      return { template: match.template, operationId: operation.operationId, problems: [`status ${answer.status} is not documented for ${operation.operationId}`] };
    }
    return {
      template: match.template,
      operationId: operation.operationId,
      problems: checkResponse(['paths', match.template, method.toLowerCase(), 'responses', String(answer.status)], documented, answer),
    };
  };
}

let shared: ReturnType<typeof createAnswerValidator> | undefined;

/** Fails the test with every way the answer breaks the document. */
export function expectAnswerMatchesDocument(method: string, path: string, answer: HttpAnswer): void {
  shared ??= createAnswerValidator();
  const { problems } = shared(method, path, answer);
  expect(problems, `${method} ${path} → ${answer.status} ${answer.text.slice(0, 300)}`).toEqual([]);
}
