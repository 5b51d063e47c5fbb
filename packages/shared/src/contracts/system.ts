import { z } from 'zod/mini';
import { defineContract } from './define';

export const health = defineContract({
  operationId: 'health',
  method: 'GET',
  path: '/health',
  summary: 'Liveness and database check',
  tags: ['system'],
  access: 'public',
  response: z.object({ status: z.literal('ok') }),
});
