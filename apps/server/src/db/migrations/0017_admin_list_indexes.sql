DROP INDEX "products_price_idx";--> statement-breakpoint
DROP INDEX "orders_created_idx";--> statement-breakpoint
DROP INDEX "orders_total_idx";--> statement-breakpoint
DROP INDEX "orders_status_sort_idx";--> statement-breakpoint
DROP INDEX "orders_username_prefix_idx";--> statement-breakpoint
CREATE INDEX "products_price_idx" ON "products" USING btree ("price_cents","id","brand","category_id","status");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"total_cents","is_paid","is_shipped","is_delivered","is_cancelled","refunded_cents","username");--> statement-breakpoint
CREATE INDEX "orders_total_idx" ON "orders" USING btree ("total_cents","id","created_at","is_paid","is_shipped","is_delivered","is_cancelled","refunded_cents","username");--> statement-breakpoint
CREATE INDEX "orders_status_sort_idx" ON "orders" USING btree ((case when "is_cancelled" then 4 when "is_delivered" then 3 when "is_shipped" then 2 when "is_paid" then 1 else 0 end),"created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"total_cents","is_paid","is_shipped","is_delivered","is_cancelled","refunded_cents","username");--> statement-breakpoint
CREATE INDEX "orders_username_prefix_idx" ON "orders" USING btree (lower("username") text_pattern_ops,"created_at","id","total_cents","is_paid","is_shipped","is_delivered","is_cancelled","refunded_cents","username");--> statement-breakpoint
-- orders: a mark that changes, in the very transaction, whenever anything the admin order list filters,
-- sorts or counts changes (an order placed, deleted or changed; a payment recorded or its status changed),
-- so its totals can be kept between requests and checked on each by reading the marks
ALTER TABLE "change_marks" ADD COLUMN "orders" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "mark_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	flag text := 'store.marked_' || TG_ARGV[0];
BEGIN
	IF coalesce(current_setting(flag, true), '') <> '1' THEN
		PERFORM set_config(flag, '1', true);
		IF TG_ARGV[0] = 'sales' THEN
			UPDATE "change_marks" SET "sales" = gen_random_uuid() WHERE "slot" = pg_backend_pid() % 8;
		ELSIF TG_ARGV[0] = 'orders' THEN
			UPDATE "change_marks" SET "orders" = gen_random_uuid() WHERE "slot" = pg_backend_pid() % 8;
		ELSE
			UPDATE "change_marks" SET "stock" = gen_random_uuid() WHERE "slot" = pg_backend_pid() % 8;
		END IF;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "orders_mark_orders" AFTER INSERT OR DELETE ON "orders"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "mark_change"('orders');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "orders_mark_orders_update" AFTER UPDATE ON "orders"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
	WHEN ((OLD."id", OLD."username", OLD."created_at", OLD."total_cents", OLD."is_paid", OLD."is_shipped", OLD."is_delivered", OLD."is_cancelled", OLD."refunded_cents")
		IS DISTINCT FROM (NEW."id", NEW."username", NEW."created_at", NEW."total_cents", NEW."is_paid", NEW."is_shipped", NEW."is_delivered", NEW."is_cancelled", NEW."refunded_cents"))
	EXECUTE FUNCTION "mark_change"('orders');--> statement-breakpoint
CREATE TRIGGER "orders_mark_orders_truncate" AFTER TRUNCATE ON "orders"
	FOR EACH STATEMENT EXECUTE FUNCTION "mark_change"('orders');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payments_mark_orders" AFTER INSERT OR DELETE ON "payments"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "mark_change"('orders');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payments_mark_orders_update" AFTER UPDATE ON "payments"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
	WHEN ((OLD."order_id", OLD."status") IS DISTINCT FROM (NEW."order_id", NEW."status"))
	EXECUTE FUNCTION "mark_change"('orders');--> statement-breakpoint
CREATE TRIGGER "payments_mark_orders_truncate" AFTER TRUNCATE ON "payments"
	FOR EACH STATEMENT EXECUTE FUNCTION "mark_change"('orders');
