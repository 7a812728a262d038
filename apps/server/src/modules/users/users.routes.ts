import {
  authUserSchema,
  forgotPasswordSchema,
  guestSchema,
  loginSchema,
  messageResponseSchema,
  registerResponseSchema,
  registerSchema,
  resendConfirmationSchema,
  resetPasswordSchema,
  userSchema,
} from '@store/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { perAccount, perIp } from '#server/lib/rate-limit.ts';
import { clearGuestCookie, guestCookieToken, setGuestCookie } from '#server/plugins/auth.ts';
import {
  confirmEmailChange,
  createGuest,
  endGuestSession,
  restoreGuest,
  updateProfile,
} from './users-profile.service.ts';
import {
  confirmEmail,
  forgotPassword,
  login,
  register,
  registerConfirm,
  resendConfirmation,
  resetPassword,
  type UsersDeps,
} from './users.service.ts';

const tags = ['users'];
const tokenParams = z.object({ token: z.string().min(1).max(200) });
const profileAnswer = userSchema.extend({ token: z.string().optional(), message: z.string().optional() });
const emailOf = (req: FastifyRequest) => (req.body as { email?: string } | undefined)?.email;

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  const deps: UsersDeps = { db: app.db, config: app.config, mailer: app.mailer, signToken: app.signToken };

  app.post(
    '/api/users',
    {
      config: perIp(limits.register.ip),
      preHandler: perAccount(app, 'register', limits.register.account, emailOf),
      schema: {
        tags,
        summary: 'Register (inactive until the e-mail is confirmed)',
        body: registerSchema,
        response: { 201: registerResponseSchema },
      },
    },
    async (req, reply) => {
      await app.captcha.verify(req.body.grecaptcha, req.ip);
      return reply.code(201).send(await register(deps, req.body));
    },
  );

  app.post(
    '/api/users/login',
    {
      config: perIp(limits.login.ip),
      // wrong passwords lock out an account only from the client address that sent them, so a
      // stranger cannot lock the owner out (guessing from many addresses is bounded per address)
      preHandler: perAccount(app, 'login', limits.login.account, (req) => {
        const email = emailOf(req);
        return email ? `${email}|${req.ip}` : undefined;
      }),
      schema: { tags, summary: 'Sign in', body: loginSchema, response: { 200: authUserSchema } },
    },
    async (req) => {
      await app.captcha.verify(req.body.grecaptcha, req.ip);
      return login(deps, req.body);
    },
  );

  app.post(
    '/api/users/confirm/:token',
    {
      schema: {
        tags,
        summary: 'Confirm the e-mail address (activates the account)',
        params: tokenParams,
        response: { 200: messageResponseSchema },
      },
    },
    async (req) => confirmEmail(deps, req.params.token),
  );

  app.post(
    '/api/users/confirm-email/:token',
    {
      config: perIp(limits.confirmEmail.ip),
      schema: {
        tags,
        summary: 'Confirm an e-mail address change (the account signs in with the new address from now on)',
        params: tokenParams,
        response: { 200: messageResponseSchema.extend({ email: z.string() }) },
      },
    },
    async (req) => confirmEmailChange(deps, req.params.token),
  );

  app.post(
    '/api/users/registerconfirm/:token',
    {
      schema: {
        tags,
        summary: 'The address a confirmation was sent to (message), for the thank-you page',
        params: tokenParams,
        response: { 200: messageResponseSchema },
      },
    },
    async (req) => registerConfirm(deps, req.params.token),
  );

  app.post(
    '/api/users/resendconfirmation',
    {
      config: perIp(limits.resend.ip),
      preHandler: perAccount(app, 'resend', limits.resend.account, emailOf),
      schema: {
        tags,
        summary: 'Send the confirmation e-mail again',
        body: resendConfirmationSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (req) => {
      await app.captcha.verify(req.body.grecaptcha, req.ip);
      return resendConfirmation(deps, req.body);
    },
  );

  app.post(
    '/api/users/fpw',
    {
      config: perIp(limits.fpw.ip),
      preHandler: perAccount(app, 'fpw', limits.fpw.account, emailOf),
      schema: {
        tags,
        summary: 'Forgot password: mails a reset link',
        body: forgotPasswordSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (req) => forgotPassword(deps, req.body),
  );

  app.post(
    '/api/users/resetpw/:token',
    {
      schema: {
        tags,
        summary: 'Set a new password with a reset link',
        params: tokenParams,
        body: resetPasswordSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (req) => resetPassword(deps, req.params.token, req.body.newPassword),
  );

  app.put(
    '/api/users/profile',
    {
      onRequest: app.requireUserOrGuest,
      schema: {
        tags,
        summary: 'Profile fields, or a password change, or a shipping address (guests too)',
        security: [{ bearer: [] }],
        body: z.record(z.string(), z.unknown()),
        response: { 200: profileAnswer },
      },
    },
    async (req) => updateProfile({ ...deps, captcha: app.captcha }, req.user!, req.body, req.ip),
  );

  app.get(
    '/api/users/session',
    { schema: { tags, summary: 'The guest of the guestToken cookie', response: { 200: userSchema } } },
    async (req, reply) => {
      try {
        return await restoreGuest(deps, guestCookieToken(req));
      } catch (err) {
        clearGuestCookie(reply, app.config);
        throw err;
      }
    },
  );

  app.post(
    '/api/users/guest',
    {
      config: perIp(limits.guest.ip),
      schema: {
        tags,
        summary: 'Start a guest session (sets the guestToken cookie)',
        body: guestSchema,
        response: { 201: userSchema },
      },
    },
    async (req, reply) => {
      await app.captcha.verify(req.body.grecaptcha, req.ip);
      const { user, token } = await createGuest(deps);
      setGuestCookie(reply, app.config, token);
      return reply.code(201).send(user);
    },
  );

  app.post(
    '/api/users/logout',
    {
      schema: {
        tags,
        summary: 'Ends a guest session: the session is deleted and the http-only cookie cleared',
        response: { 200: messageResponseSchema },
      },
    },
    async (req, reply) => {
      await endGuestSession(deps, guestCookieToken(req));
      clearGuestCookie(reply, app.config);
      return { message: 'Logged out' };
    },
  );
};
