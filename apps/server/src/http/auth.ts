import type { FastifyRequest } from 'fastify';
import { AUTH_REQUIRED, unauthorized } from './errors';

export interface AuthUser {
  id: number;
  email: string;
  name: string;
  role: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

const SCHEME = /^(?:Token|Bearer)\s+([A-Za-z0-9_-]{16,128})\s*$/i;

/** The session token from `Authorization: Token <t>` (or `Bearer <t>`), or null. */
export function readSessionToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  return SCHEME.exec(header)?.[1] ?? null;
}

export async function authenticate(request: FastifyRequest, options: { required: true }): Promise<AuthUser>;
export async function authenticate(request: FastifyRequest, options: { required: boolean }): Promise<AuthUser | null>;
export async function authenticate(request: FastifyRequest, options: { required: boolean }): Promise<AuthUser | null> {
  const token = readSessionToken(request);
  const user = token ? await request.server.services.auth.resolveSession(token) : null;
  if (!user && options.required) throw unauthorized(AUTH_REQUIRED);
  request.user = user;
  return user;
}
