import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import {
  LIMITS,
  UPLOAD_MAX_FILES,
  UPLOAD_MESSAGES,
  deleteUploadsResponseSchema,
  deleteUploadsSchema,
  PRODUCT_MESSAGES,
  uploadListSchema,
  uploadQuerySchema,
  uploadResponseSchema,
} from '@store/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequestError, NotFoundError } from '#server/lib/errors.ts';
import { perIp } from '#server/lib/rate-limit.ts';
import { attachUploads, productExists } from '../products-admin/products-admin.service.ts';
import { receiveImages } from './uploads.receive.ts';
import { deleteImages, listImages } from './uploads.service.ts';

const tags = ['uploads (admin)'];
const security = [{ bearer: [] }];
const params = z.object({ folder: z.string().max(200) });

/** Gallery images (JPG/PNG up to 5 MB, checked by their bytes) under $DATA_DIR/uploads/{folder}, admin only. */
export const uploadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const uploadsDir = path.join(app.config.dataDir, 'uploads');
  const onRequest = app.requireAdmin;

  // only this plugin reads multipart bodies; the size limit cuts a file off (counted as skipped, not a 413)
  await app.register(fastifyMultipart, {
    limits: { fileSize: LIMITS.uploadBytes, files: UPLOAD_MAX_FILES, fields: 20, parts: UPLOAD_MAX_FILES + 20 },
    throwFileSizeLimit: false,
  });

  app.get(
    '/api/upload/list/:folder',
    {
      onRequest,
      schema: { tags, security, summary: 'Images of a gallery folder', params, response: { 200: uploadListSchema } },
    },
    async (req) => listImages(uploadsDir, req.params.folder),
  );

  app.post(
    '/api/upload/:folder',
    {
      onRequest,
      config: perIp(app.config.rateLimits.upload.ip),
      schema: {
        tags,
        security,
        summary: `Upload JPG/PNG images (multipart field "files", up to ${UPLOAD_MAX_FILES}, 5 MB each) as WebP`,
        description:
          'With `?product={id}` the stored images join that product: appended to its gallery in upload order, the first as its main image when it has none.',
        consumes: ['multipart/form-data'],
        params,
        querystring: uploadQuerySchema,
        response: { 200: uploadResponseSchema },
      },
    },
    async (req) => {
      if (!req.isMultipart()) throw new BadRequestError(UPLOAD_MESSAGES.notMultipart);
      const productId = req.query.product;
      if (productId !== undefined && !(await productExists(app.db, productId)))
        throw new NotFoundError(PRODUCT_MESSAGES.notFound);
      const received = await receiveImages(req.parts(), uploadsDir, req.params.folder, req.log);
      if (productId === undefined) return received;
      const srcs = received.files.map((f) => f.src);
      const product = await attachUploads(app.db, productId, req.params.folder, srcs);
      if (srcs.length > 0) await app.catalogCache.invalidate();
      return { ...received, product };
    },
  );

  app.delete(
    '/api/upload/:folder',
    {
      onRequest,
      schema: {
        tags,
        security,
        summary: 'Delete images of a gallery folder (every width of each)',
        params,
        body: deleteUploadsSchema,
        response: { 200: deleteUploadsResponseSchema },
      },
    },
    async (req) => {
      const deleted = await deleteImages(uploadsDir, req.params.folder, req.body.srcs);
      return { deleted, message: `Deleted ${deleted.length} image(s).` };
    },
  );
};
