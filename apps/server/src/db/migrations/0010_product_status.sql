ALTER TABLE "products" ADD COLUMN "status" varchar(16) DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "published_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
CREATE INDEX "products_status_idx" ON "products" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "products_stale_draft_idx" ON "products" USING btree ("updated_at") WHERE "products"."status" = 'draft' and "products"."published_at" is null;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_status_valid" CHECK ("products"."status" in ('draft', 'active'));--> statement-breakpoint
UPDATE "products" SET "published_at" = "created_at" WHERE "status" = 'active';