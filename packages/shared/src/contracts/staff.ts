import { z } from 'zod/mini';
import { TIERS } from '../domain/tiers';
import { defineContract } from './define';

export const mintKeys = defineContract({
  operationId: 'mintKeys',
  method: 'POST',
  path: '/staff/keys',
  summary: 'Mint unclaimed license keys (staff only)',
  tags: ['staff'],
  access: 'staff',
  status: 201,
  body: z.object({
    tier: z.enum(TIERS),
    count: z.int().check(z.minimum(1, 'count must be at least 1'), z.maximum(500, 'count must be at most 500')),
  }),
  response: z.object({ keys: z.array(z.string()) }),
});
