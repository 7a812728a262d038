-- Marks that change, in the very transaction, whenever something the admin's sales overview reads changes:
-- its figures can then be kept between requests and checked on each by reading these few rows. A mark is
-- a fresh random value (never a counter a restored or copied database could reach again with other data).
-- The rows are slots so that concurrent commits rarely wait on one another: a transaction marks the slot
-- of its connection only (one row: two topics never lock two rows, so no deadlock between them).
CREATE TABLE "change_marks" (
	"slot" smallint PRIMARY KEY NOT NULL,
	"sales" uuid DEFAULT gen_random_uuid() NOT NULL,
	"stock" uuid DEFAULT gen_random_uuid() NOT NULL
);--> statement-breakpoint
INSERT INTO "change_marks" ("slot") SELECT generate_series(0, 7);--> statement-breakpoint
-- Runs once per transaction and topic (a local setting remembers it), at commit (the triggers are deferred),
-- so the row is locked only while the transaction commits.
CREATE FUNCTION "mark_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	flag text := 'store.marked_' || TG_ARGV[0];
BEGIN
	IF coalesce(current_setting(flag, true), '') <> '1' THEN
		PERFORM set_config(flag, '1', true);
		IF TG_ARGV[0] = 'sales' THEN
			UPDATE "change_marks" SET "sales" = gen_random_uuid() WHERE "slot" = pg_backend_pid() % 8;
		ELSE
			UPDATE "change_marks" SET "stock" = gen_random_uuid() WHERE "slot" = pg_backend_pid() % 8;
		END IF;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
-- sales: orders placed, paid, refunded, shipped or cancelled, and their lines
CREATE CONSTRAINT TRIGGER "orders_mark_sales" AFTER INSERT OR DELETE ON "orders"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "mark_change"('sales');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "orders_mark_sales_update" AFTER UPDATE ON "orders"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
	WHEN ((OLD."created_at", OLD."is_paid", OLD."paid_at", OLD."total_cents", OLD."refunded_cents", OLD."is_shipped", OLD."is_cancelled")
		IS DISTINCT FROM (NEW."created_at", NEW."is_paid", NEW."paid_at", NEW."total_cents", NEW."refunded_cents", NEW."is_shipped", NEW."is_cancelled"))
	EXECUTE FUNCTION "mark_change"('sales');--> statement-breakpoint
CREATE TRIGGER "orders_mark_sales_truncate" AFTER TRUNCATE ON "orders"
	FOR EACH STATEMENT EXECUTE FUNCTION "mark_change"('sales');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "order_items_mark_sales" AFTER INSERT OR DELETE ON "order_items"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "mark_change"('sales');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "order_items_mark_sales_update" AFTER UPDATE ON "order_items"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
	WHEN ((OLD."order_id", OLD."product_id", OLD."name", OLD."price_cents", OLD."qty")
		IS DISTINCT FROM (NEW."order_id", NEW."product_id", NEW."name", NEW."price_cents", NEW."qty"))
	EXECUTE FUNCTION "mark_change"('sales');--> statement-breakpoint
CREATE TRIGGER "order_items_mark_sales_truncate" AFTER TRUNCATE ON "order_items"
	FOR EACH STATEMENT EXECUTE FUNCTION "mark_change"('sales');--> statement-breakpoint
-- stock: products and variants added, removed, renamed or with another count in stock
CREATE CONSTRAINT TRIGGER "products_mark_stock" AFTER INSERT OR DELETE ON "products"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "mark_change"('stock');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "products_mark_stock_update" AFTER UPDATE ON "products"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
	WHEN ((OLD."name", OLD."count_in_stock") IS DISTINCT FROM (NEW."name", NEW."count_in_stock"))
	EXECUTE FUNCTION "mark_change"('stock');--> statement-breakpoint
CREATE TRIGGER "products_mark_stock_truncate" AFTER TRUNCATE ON "products"
	FOR EACH STATEMENT EXECUTE FUNCTION "mark_change"('stock');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "product_variants_mark_stock" AFTER INSERT OR DELETE ON "product_variants"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "mark_change"('stock');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "product_variants_mark_stock_update" AFTER UPDATE ON "product_variants"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
	WHEN ((OLD."product_id", OLD."name", OLD."count_in_stock") IS DISTINCT FROM (NEW."product_id", NEW."name", NEW."count_in_stock"))
	EXECUTE FUNCTION "mark_change"('stock');--> statement-breakpoint
CREATE TRIGGER "product_variants_mark_stock_truncate" AFTER TRUNCATE ON "product_variants"
	FOR EACH STATEMENT EXECUTE FUNCTION "mark_change"('stock');
