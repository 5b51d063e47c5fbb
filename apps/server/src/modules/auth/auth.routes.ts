import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/auth';
import { readSessionToken } from '../../http/auth';
import { unauthorized } from '../../http/errors';
import { registerRoute } from '../../http/route';

export async function authRoutes(app: FastifyInstance) {
  const auth = app.services.auth;

  registerRoute(app, contracts.signup, async ({ body }, request) => {
    await app.services.limits.signupByIp.hit(`signup:${request.ip}`);
    return auth.signup(body);
  });
  registerRoute(app, contracts.login, ({ body }, request) => auth.login(body, request.ip));
  registerRoute(app, contracts.logout, async (_input, request) => {
    const token = readSessionToken(request);
    if (token) await auth.logout(token);
  });
  registerRoute(app, contracts.me, ({ user }) => auth.loadUser(user.id));
  registerRoute(app, contracts.updateProfile, ({ user, body }) => auth.updateProfile(user.id, body));
  registerRoute(app, contracts.changePassword, async ({ user, body }, request) => {
    // The route is signed-in only, so the token is there; the check keeps the type honest.
    const token = readSessionToken(request);
    if (!token) throw unauthorized();
    return auth.changePassword(user.id, token, body);
  });
  registerRoute(app, contracts.forgotPassword, ({ body }, request) => auth.forgotPassword(body.email, request.ip));
  registerRoute(app, contracts.resetPassword, ({ body }, request) => auth.resetPassword(body, request.ip));
}
