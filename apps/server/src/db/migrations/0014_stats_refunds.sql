DROP INDEX "orders_paid_idx";--> statement-breakpoint
CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("paid_at","total_cents","refunded_cents","id") WHERE "orders"."is_paid";