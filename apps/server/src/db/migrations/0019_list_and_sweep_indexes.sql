DROP INDEX "products_name_idx";--> statement-breakpoint
CREATE INDEX "products_rating_asc_idx" ON "products" USING btree ("rating" NULLS FIRST,"num_reviews" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "products_brand_name_idx" ON "products" USING btree (lower("brand"),lower("name"),"id");--> statement-breakpoint
CREATE INDEX "orders_unpaid_idx" ON "orders" USING btree ("created_at") WHERE not "orders"."is_paid" and not "orders"."is_shipped" and not "orders"."is_delivered" and not "orders"."is_cancelled";--> statement-breakpoint
CREATE INDEX "products_name_idx" ON "products" USING btree (lower("name"),"id","category_id","price_cents","in_stock","status","name");