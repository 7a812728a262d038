import fastifyMultipart from '@fastify/multipart';
import {
  CSV_IMPORT_MAX_BYTES,
  IMPORT_JOB_RE,
  apiErrorSchema,
  importErrorSchema,
  importProgressSchema,
  importResultSchema,
} from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CSV_CONTENT_TYPE, csvAttachment } from '#server/lib/csv.ts';
import { BadRequestError } from '#server/lib/errors.ts';
import {
  CSV_IMPORT_MESSAGES,
  ImportJobs,
  ImportRowsError,
  exportProducts,
  importProducts,
  receiveCsv,
} from './products-csv.service.ts';

const tags = ['products (admin)'];
const security = [{ bearer: [] }];

/** GET /api/products/export and POST /api/products/import (admin): the catalogue as CSV. */
export const productsCsvRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const onRequest = app.requireAdmin;
  const jobs = new ImportJobs();

  // this plugin reads its own multipart bodies: one file, cut off past the limit (answered 413)
  await app.register(fastifyMultipart, {
    limits: { fileSize: CSV_IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 20 },
    throwFileSizeLimit: false,
  });

  app.get(
    '/api/products/export',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Every product as CSV: _id, slug, name, brand, category (its name), price, …, variants (JSON)',
        produces: ['text/csv'],
      },
    },
    async (_req, reply) =>
      reply
        .header('content-disposition', csvAttachment('products'))
        .header('cache-control', 'private, no-store')
        .type(CSV_CONTENT_TYPE)
        .send(exportProducts(db)),
  );

  app.post(
    '/api/products/import',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary:
          'Create (new slug) or update (known slug) products from a CSV with the export’s header (multipart field "file", up to 10 MB). Any bad row: 400 listing each, nothing written',
        consumes: ['multipart/form-data'],
        querystring: z.object({
          job: z.string().regex(IMPORT_JOB_RE, 'job must be 8 to 64 of a-z, 0-9 and -').optional(),
        }),
        // a refused file is { message, code }; refused rows add the list of them
        response: { 200: importResultSchema, 400: z.union([importErrorSchema, apiErrorSchema]) },
      },
    },
    async (req, reply) => {
      if (!req.isMultipart()) throw new BadRequestError(CSV_IMPORT_MESSAGES.notMultipart);
      const { job } = req.query;
      const progress = jobs.start(job);
      try {
        const bytes = await receiveCsv(req.file(), progress, Number(req.headers['content-length']) || 0);
        const result = await importProducts(db, bytes, progress, { overlap: app.database.kind === 'postgres' });
        // the catalogue answers and the search index are dropped (in every process through the cache bus)
        if (result.created + result.updated > 0) await app.catalogCache.invalidate();
        jobs.finish(job, progress, true);
        return result;
      } catch (err) {
        jobs.finish(job, progress, false);
        if (err instanceof ImportRowsError)
          return reply.code(400).send({ message: err.message, code: err.code, errors: err.errors });
        throw err;
      }
    },
  );

  app.get(
    '/api/products/import/jobs/:id',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary:
          'Progress of an import named with ?job= while it runs (kept a minute after). Held by the process running it: 404 elsewhere',
        params: z.object({ id: z.string().max(100) }),
        response: { 200: importProgressSchema },
      },
    },
    async (req) => jobs.get(req.params.id),
  );
};
