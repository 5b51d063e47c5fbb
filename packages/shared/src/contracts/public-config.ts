import { z } from 'zod/mini';
import { defineContract } from './define';

/** The vendor's external links and settings the web app needs before sign-in. */
export const PublicConfigSchema = z.object({
  links: z.object({
    shopUrl: z.string(),
    productUrl: z.string(),
    appStoreUrl: z.string(),
    sellStoreFormUrl: z.string(),
    /** null when no setup-guide video is configured: the web shows no player. */
    setupGuideVideoUrl: z.nullable(z.string()),
  }),
  /**
   * True while card payments or PayPal cannot take real money (the portal's sandboxes or the providers' test modes:
   * development, or production with SANDBOX_INTEGRATIONS=true): every page shows "Sandbox — no real money".
   */
  sandbox: z.boolean(),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;

export const getPublicConfig = defineContract({
  operationId: 'getPublicConfig',
  method: 'GET',
  path: '/config',
  summary: 'Public configuration: external links, and whether the portal runs on sandboxes',
  tags: ['system'],
  access: 'public',
  response: PublicConfigSchema,
});
