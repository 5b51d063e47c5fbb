import { z } from 'zod/mini';
import { defineContract } from './define';

/** §3 Key, exactly as GET /keys/ returns it. `secondary_url` may hold the text 'None', meaning empty. */
export const KeySchema = z.object({
  id: z.int(),
  api_key: z.string(),
  pro: z.boolean(),
  lite: z.boolean(),
  linked_app_store: z.nullable(z.string()),
  main_url: z.nullable(z.string()),
  myshopify: z.nullable(z.string()),
  secondary_url: z.nullable(z.string()),
});
export type Key = z.infer<typeof KeySchema>;

export const getKeys = defineContract({
  operationId: 'getKeys',
  method: 'GET',
  path: '/keys/',
  summary: "The signed-in user's license keys",
  tags: ['keys'],
  access: 'user',
  response: z.array(KeySchema),
});

/** §5 "Add key": the trimmed key must be non-empty. */
/** Acting on a key that is not the caller's (or does not exist): the one answer of every module. */
export const OWNED_KEY_NOT_FOUND = 'License key not found.';

export const ADD_KEY_EMPTY_MESSAGE = 'Please enter a license key to import.';

export const addKey = defineContract({
  operationId: 'addKey',
  method: 'POST',
  path: '/keys/',
  summary: 'Add an existing (unclaimed) license key to the account',
  tags: ['keys'],
  access: 'user',
  status: 201,
  body: z.object({
    key: z
      .string()
      .check(z.trim(), z.minLength(1, ADD_KEY_EMPTY_MESSAGE), z.maxLength(100, 'This is not a license key')),
  }),
  response: z.object({ key: KeySchema }),
});

export const disconnectKey = defineContract({
  operationId: 'disconnectKey',
  method: 'POST',
  path: '/keys/delete',
  summary: 'Disconnect a key: clears its store connection and releases it from the account',
  tags: ['keys'],
  access: 'user',
  body: z.object({ apiKey: z.string().check(z.trim(), z.minLength(1, 'apiKey is required'), z.maxLength(100)) }),
  response: z.object({ success: z.literal(true) }),
});
