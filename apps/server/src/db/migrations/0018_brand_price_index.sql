DROP INDEX "products_brand_idx";--> statement-breakpoint
CREATE INDEX "products_brand_price_idx" ON "products" USING btree (lower("brand"),"price_cents","id","brand");