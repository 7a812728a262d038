import {
  contactSchema,
  inboxPageSchema,
  inboxQuerySchema,
  messageSendSchema,
  recipientQuerySchema,
  recipientSchema,
  supportMessageSchema,
  supportUnreadSchema,
} from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { perIp } from '#server/lib/rate-limit.ts';
import {
  getConversation,
  listInbox,
  markConversationRead,
  searchRecipients,
  sendMessage,
  submitContact,
  unreadCounts,
} from './support.service.ts';

const tags = ['support'];
const security = [{ bearer: [] }];

export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  const db = app.db;

  app.post(
    '/api/contact',
    {
      config: perIp(limits.contact.ip),
      schema: {
        tags,
        summary: 'Contact form: stored as a contact thread, announced to the admins by e-mail',
        body: contactSchema,
        response: { 201: z.object({ message: z.string() }) },
      },
    },
    async (req, reply) => {
      await app.captcha.verify(req.body.grecaptcha, req.ip);
      return reply.code(201).send(await submitContact(db, app.config.publicUrl, req.body));
    },
  );

  app.post(
    '/api/messages/send',
    {
      onRequest: app.requireUser,
      config: perIp(limits.supportMessage.ip),
      schema: {
        tags,
        security,
        summary: 'Send a support message (sender = the signed-in account; admins need no captcha)',
        body: messageSendSchema,
        response: { 201: supportMessageSchema },
      },
    },
    async (req, reply) => {
      const me = req.user!;
      // admins are signed-in, trusted accounts answering many people: no captcha for them
      if (!me.isAdmin) await app.captcha.verify(req.body.grecaptcha, req.ip);
      return reply.code(201).send(await sendMessage(db, me, req.body, app.config.publicUrl));
    },
  );

  app.get(
    '/api/messages/get/:id',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security,
        summary: 'A conversation, oldest first (users: only their own; admins: user id, username or contact e-mail)',
        params: z.object({ id: z.string().min(1).max(254) }),
        response: { 200: z.array(supportMessageSchema) },
      },
    },
    async (req) => getConversation(db, req.user!, req.params.id),
  );

  app.get(
    '/api/messages/recipients',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        security,
        summary: 'Admin recipient suggestions: accounts and contact senders (at most 50)',
        querystring: recipientQuerySchema,
        response: { 200: z.array(recipientSchema) },
      },
    },
    async (req) => searchRecipients(db, req.query.q),
  );

  app.get(
    '/api/support/inbox',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        security,
        summary: 'Admin inbox: conversations newest first with their customer, newest message and unread count',
        querystring: inboxQuerySchema,
        response: { 200: inboxPageSchema },
      },
    },
    async (req) => listInbox(db, req.query),
  );

  app.get(
    '/api/support/unread',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security,
        summary: "Support replies the signed-in account has not read; for admins also the inbox's unread conversations",
        response: { 200: supportUnreadSchema },
      },
    },
    async (req) => unreadCounts(db, req.user!),
  );

  app.put(
    '/api/support/conversations/:id/read',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security,
        summary: 'Mark a conversation read (users: only their own, as `me`, their id or username; admins: any)',
        params: z.object({ id: z.string().min(1).max(254) }),
        response: { 200: z.object({ unread: z.number() }) },
      },
    },
    async (req) => markConversationRead(db, req.user!, req.params.id),
  );
};
