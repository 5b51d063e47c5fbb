import type { FastifySchemaCompiler } from 'fastify';
import { safeParse, type $ZodErrorMap, type $ZodType } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

/** Why a request was refused before it reached its handler. Becomes a 400 `{ error, code }`. */
export class RequestValidationError extends Error {
  override name = 'RequestValidationError';
  readonly statusCode = 400;
  constructor(
    message: string,
    readonly code: 'invalid_request' | 'invalid_characters',
  ) {
    super(message);
  }
}

export const NUL_CHARACTER_MESSAGE = 'Text fields must not contain NUL characters.';

const englishMessages = en().localeError;

/**
 * The validator of every contract schema (body, query, params). Before parsing, any string holding U+0000 is refused:
 * PostgreSQL cannot store it in text or jsonb, and no person types it. One check here covers every route.
 *
 * A contract's own message is the spec's exact text and is answered as it is. The error map given to `safeParse` runs
 * only for issues whose schema carries no message of its own (zod's precedence), so zod's generic English text, and
 * only that, gets the field's path in front ("name: Invalid input: expected string, received number").
 */
export const validatorCompiler: FastifySchemaCompiler<$ZodType> = ({ schema, httpPart }) => {
  const part = httpPart === 'querystring' ? 'query' : (httpPart ?? 'request');
  const genericMessage: $ZodErrorMap = (issue) => {
    const base = englishMessages(issue);
    const text = typeof base === 'string' ? base : (base?.message ?? 'Invalid input');
    const field = (issue.path ?? []).map(String).join('.');
    return `${field || part}: ${text}`;
  };
  return (data) => {
    if (containsNul(data)) return { error: new RequestValidationError(NUL_CHARACTER_MESSAGE, 'invalid_characters') };
    // Parsed without the error map first: zod's fast path, which an error map turns off (about 5× slower on the
    // validation route, ADR 031 "Performance"). Only a refused value is parsed again to word its first issue.
    const parsed = safeParse(schema, data);
    if (parsed.success) return { value: parsed.data };
    const result = safeParse(schema, data, { error: genericMessage });
    if (result.success) return { value: result.data };
    return {
      error: new RequestValidationError(result.error.issues[0]?.message ?? 'Invalid request', 'invalid_request'),
    };
  };
};

/** True when a string anywhere in the value (object keys included) holds U+0000. Depth-limited like JSON bodies are. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  // Issue 22: every body and query passes here; walked without the arrays `Object.entries` and a closure would make.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) if (containsNul(value[i], depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key.includes('\u0000') || containsNul((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}
