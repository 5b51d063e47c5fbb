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
  method: 'GET',
  path: '/keys/',
  summary: "The signed-in user's license keys",
  tags: ['keys'],
  access: 'user',
  response: z.array(KeySchema),
});
