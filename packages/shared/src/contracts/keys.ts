import { z } from 'zod';
import { defineContract } from './define';

/** §3 Key, exactly as GET /keys/ returns it. `secondary_url` may hold the text 'None', meaning empty. */
export const KeySchema = z.object({
  id: z.number().int(),
  api_key: z.string(),
  pro: z.boolean(),
  lite: z.boolean(),
  linked_app_store: z.string().nullable(),
  main_url: z.string().nullable(),
  myshopify: z.string().nullable(),
  secondary_url: z.string().nullable(),
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
