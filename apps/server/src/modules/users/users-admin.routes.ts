import {
  adminUserSchema,
  adminUserUpdateSchema,
  messageResponseSchema,
  objectIdSchema,
  userCountSchema,
  userListQuerySchema,
  userListResponseSchema,
} from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countUsers, deleteUser, getUser, listUsers, updateUser } from './users-admin.service.ts';

const tags = ['users (admin)'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: objectIdSchema });

export const usersAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  // on arrival: who may ask is settled before the request is validated
  const onRequest = app.requireAdmin;

  app.get(
    '/api/users',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Users with filters and pages; `search` gives up to 50 recipient suggestions',
        querystring: userListQuerySchema,
        response: { 200: userListResponseSchema },
      },
    },
    async (req) => listUsers(db, req.query),
  );

  app.get(
    '/api/users/count',
    { onRequest, schema: { tags, security, summary: 'Number of accounts', response: { 200: userCountSchema } } },
    async () => countUsers(db),
  );

  app.get(
    '/api/users/:id',
    {
      onRequest,
      schema: { tags, security, summary: 'One user', params: idParams, response: { 200: adminUserSchema } },
    },
    async (req) => getUser(db, req.params.id),
  );

  app.put(
    '/api/users/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Edit a user',
        params: idParams,
        body: adminUserUpdateSchema,
        response: { 200: adminUserSchema },
      },
    },
    async (req) => updateUser(db, req.user!, req.params.id, req.body),
  );

  app.delete(
    '/api/users/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Delete a user (orders stay readable)',
        params: idParams,
        response: { 200: messageResponseSchema },
      },
    },
    async (req) => deleteUser(db, req.user!, req.params.id),
  );
};
