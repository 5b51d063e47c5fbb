import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

type Json = Record<string, unknown>;
let t: TestApp;
let document: { paths: Record<string, Record<string, Json>> };

beforeAll(async () => {
  t = await createTestApp();
  document = (await t.app.inject({ url: '/api/openapi.json' })).json();
});

const describeProblem = (problem: NormalizedProblem) =>
  `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? '?'}`;

const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

/** Every schema of the document: request bodies, parameters and responses. */
function* schemas(): Generator<{ where: string; schema: Json }> {
  for (const { path, method, operation } of operations()) {
    const where = `${method.toUpperCase()} ${path}`;
    const body = operation.requestBody as { content: Record<string, { schema: Json }> } | undefined;
    for (const [type, media] of Object.entries(body?.content ?? {}))
      yield { where: `${where} body ${type}`, schema: media.schema };
    for (const parameter of (operation.parameters as { name: string; schema: Json }[] | undefined) ?? []) {
      yield { where: `${where} parameter ${parameter.name}`, schema: parameter.schema };
    }
    const responses = operation.responses as Record<string, { content?: Record<string, { schema: Json }> }>;
    for (const [status, response] of Object.entries(responses)) {
      for (const [type, media] of Object.entries(response.content ?? {})) {
        yield { where: `${where} ${status} ${type}`, schema: media.schema };
      }
    }
  }
}

describe('the OpenAPI document', () => {
  it("is clean under Redocly's recommended rules: no error, no warning", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    expect(problems.map(describeProblem)).toEqual([]);
  });

  it('every schema compiles with Ajv (JSON Schema 2020-12, strict mode)', () => {
    // Formats (email, uri) are annotations here; union types (['boolean', 'string', 'null']) are standard 2020-12.
    const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, validateFormats: false });
    const failures: string[] = [];
    for (const { where, schema } of schemas()) {
      try {
        ajv.compile(schema);
      } catch (error) {
        failures.push(`${where}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('names every operation once, and says which need a session', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/auth/login']!.post!.security).toEqual([]);
    expect(document.paths['/keys']!.get!.security).toEqual([{ session: [] }]);
  });

  it('documents the 204 of sign-out, the zip downloads and the multipart release upload', () => {
    const responses = (path: string, method: string) => document.paths[path]![method]!.responses as Json;
    expect(responses('/auth/logout', 'post')).toHaveProperty('204');
    for (const [path, method] of [
      ['/api/download-with-token', 'post'],
      ['/api/proxy_dl', 'post'],
      ['/api/releases/{id}/download', 'get'],
    ] as const) {
      expect(responses(path, method)['200']).toMatchObject({ content: { 'application/zip': expect.any(Object) } });
    }
    const upload = document.paths['/staff/releases']!.post!.requestBody as Json;
    expect(upload).toMatchObject({
      content: { 'multipart/form-data': { schema: { required: ['edition', 'version', 'reason', 'file'] } } },
    });
  });
});
