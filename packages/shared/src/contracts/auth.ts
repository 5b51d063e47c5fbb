import { z } from 'zod/mini';
import { defineContract } from './define';

const email = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.email('Enter a valid email address'), z.maxLength(254, 'Email is too long'));
const password = z
  .string()
  .check(z.minLength(8, 'Password must be at least 8 characters'), z.maxLength(200, 'Password is too long'));

export const OrderSummarySchema = z.object({ id: z.int(), created_at: z.string() });

/** §3 "User fields read", as GET /auth/me returns them. */
export const UserSchema = z.object({
  id: z.int(),
  email: z.string(),
  name: z.string(),
  role: z.nullable(z.string()),
  /** true, false, a date string, or null when unset. */
  has_lifetime_support: z.nullable(z.union([z.boolean(), z.string()])),
  orders: z.array(OrderSummarySchema),
});
export type User = z.infer<typeof UserSchema>;

export const SessionSchema = z.object({ token: z.string(), user: UserSchema });
export type Session = z.infer<typeof SessionSchema>;

export const signup = defineContract({
  operationId: 'signup',
  method: 'POST',
  path: '/auth/signup',
  summary: 'Create an account and sign in',
  tags: ['auth'],
  access: 'public',
  status: 201,
  body: z.object({
    email,
    password,
    name: z.string().check(z.trim(), z.minLength(1, 'Enter your name'), z.maxLength(100, 'Name is too long')),
  }),
  response: SessionSchema,
});

export const login = defineContract({
  operationId: 'login',
  method: 'POST',
  path: '/auth/login',
  summary: 'Sign in with email and password',
  tags: ['auth'],
  access: 'public',
  body: z.object({
    email,
    password: z.string().check(z.minLength(1, 'Enter your password'), z.maxLength(200, 'Password is too long')),
  }),
  response: SessionSchema,
});

export const logout = defineContract({
  operationId: 'logout',
  method: 'POST',
  path: '/auth/logout',
  summary: 'Sign out: revokes the session',
  tags: ['auth'],
  access: 'user',
  status: 204,
});

export const me = defineContract({
  operationId: 'me',
  method: 'GET',
  path: '/auth/me',
  summary: 'The signed-in user',
  tags: ['auth'],
  access: 'user',
  response: UserSchema,
});

export const forgotPassword = defineContract({
  operationId: 'forgotPassword',
  method: 'POST',
  path: '/auth/password/forgot',
  summary: 'Email a password reset link (always answers the same, to not reveal accounts)',
  tags: ['auth'],
  access: 'public',
  status: 202,
  body: z.object({ email }),
  response: z.object({ message: z.string() }),
});

export const resetPassword = defineContract({
  operationId: 'resetPassword',
  method: 'POST',
  path: '/auth/password/reset',
  summary: 'Set a new password with a reset token, then sign in',
  tags: ['auth'],
  access: 'public',
  body: z.object({
    token: z
      .string()
      .check(z.minLength(1, 'The reset link is incomplete'), z.maxLength(200, 'The reset link is invalid')),
    password,
  }),
  response: SessionSchema,
});

export const UserStoreSchema = z.object({ id: z.int(), myshopify_domain: z.string() });
export type UserStore = z.infer<typeof UserStoreSchema>;

export const getUserStores = defineContract({
  operationId: 'getUserStores',
  method: 'GET',
  path: '/auth/user-stores',
  summary: "The signed-in user's connected stores",
  tags: ['auth'],
  access: 'user',
  response: z.object({ stores: z.array(UserStoreSchema) }),
});

export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for that email, we have sent a link to reset the password.';

export const updateProfile = defineContract({
  operationId: 'updateProfile',
  method: 'PUT',
  path: '/auth/me',
  summary: "Change the signed-in user's name",
  tags: ['auth'],
  access: 'user',
  body: z.object({
    name: z.string().check(z.trim(), z.minLength(1, 'Enter your name'), z.maxLength(100, 'Name is too long')),
  }),
  response: UserSchema,
});

export const changePassword = defineContract({
  operationId: 'changePassword',
  method: 'POST',
  path: '/auth/password/change',
  summary: 'Change the password (needs the current one); other sessions are signed out',
  tags: ['auth'],
  access: 'user',
  body: z.object({
    current_password: z.string().check(z.minLength(1, 'Enter your current password'), z.maxLength(200)),
    new_password: password,
  }),
  response: z.object({ message: z.string() }),
});

export const PASSWORD_CHANGED_MESSAGE = 'Your password was changed. Other devices have been signed out.';

/** Error codes of the auth routes that the web acts on (beside the message it shows as it is). */
export const AUTH_ERROR_CODES = {
  /** POST /auth/password/reset: the link was used, replaced by a newer one, or has expired. */
  resetLinkInvalid: 'reset_link_invalid',
  /** POST /auth/password/change: the current password is not the account's. */
  wrongPassword: 'wrong_password',
} as const;
