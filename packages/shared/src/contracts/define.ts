import { z } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Who may call: anyone, any signed-in user, or signed-in users with the staff role. */
export type Access = 'public' | 'user' | 'staff';

/** One endpoint: method, path, request schemas and the success response. Server and web both import these. */
export interface Contract {
  /** Unique and stable: the OpenAPI operationId (the contract's export name). */
  operationId: string;
  method: HttpMethod;
  path: string;
  summary: string;
  tags: readonly string[];
  access: Access;
  body?: $ZodType;
  query?: $ZodType;
  params?: $ZodType;
  /** The success body; absent for 204 responses and for files. */
  response?: $ZodType;
  status?: 200 | 201 | 202 | 204;
  /** A success answered with a file of this media type instead of JSON (streamed; `response` is absent). */
  produces?: 'application/zip' | 'application/pdf' | 'text/html';
  /**
   * A multipart/form-data body the handler reads itself (files are streamed, not validated as JSON): documented in
   * the OpenAPI document only.
   */
  multipartBody?: $ZodType;
}

export const defineContract = <const C extends Contract>(contract: C): C => contract;

type Field<C, K extends keyof Contract> = C extends { [P in K]: infer S extends $ZodType } ? S : undefined;
export type BodyOf<C extends Contract> = Field<C, 'body'> extends $ZodType ? z.input<Field<C, 'body'>> : undefined;
export type QueryOf<C extends Contract> = Field<C, 'query'> extends $ZodType ? z.input<Field<C, 'query'>> : undefined;
export type ParamsOf<C extends Contract> =
  Field<C, 'params'> extends $ZodType ? z.input<Field<C, 'params'>> : undefined;
export type ParsedBodyOf<C extends Contract> =
  Field<C, 'body'> extends $ZodType ? z.output<Field<C, 'body'>> : undefined;
export type ParsedQueryOf<C extends Contract> =
  Field<C, 'query'> extends $ZodType ? z.output<Field<C, 'query'>> : undefined;
export type ParsedParamsOf<C extends Contract> =
  Field<C, 'params'> extends $ZodType ? z.output<Field<C, 'params'>> : undefined;
export type ResponseOf<C extends Contract> =
  Field<C, 'response'> extends $ZodType ? z.output<Field<C, 'response'>> : void;

/**
 * Every error response: `{ "error": "…", "code": "…" }` plus a status code. `error` is for people (the spec's exact
 * text where it gives one); `code` is for programs (stable snake_case, e.g. `invalid_request`, `rate_limited`).
 */
export const ErrorSchema = z.object({ error: z.string(), code: z.string() });
export type ErrorBody = z.infer<typeof ErrorSchema>;
