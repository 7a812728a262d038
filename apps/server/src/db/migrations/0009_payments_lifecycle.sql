CREATE SEQUENCE "public"."orders_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1001 CACHE 1;--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"order_id" char(24) NOT NULL,
	"event" varchar(32) NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"by" varchar(120) DEFAULT '' NOT NULL,
	"note" varchar(500) DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_refunds" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"order_id" char(24) NOT NULL,
	"amount_cents" integer NOT NULL,
	"reason" varchar(500) DEFAULT '' NOT NULL,
	"status" varchar(16) NOT NULL,
	"provider_refund_id" varchar(64) DEFAULT '' NOT NULL,
	"restock" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"by_user" varchar(120) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_refunds_amount_pos" CHECK ("order_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "paypal_checkouts" (
	"paypal_order_id" varchar(64) PRIMARY KEY NOT NULL,
	"order_id" char(24) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "restocked_qty" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "order_number" integer DEFAULT nextval('orders_number_seq') NOT NULL;--> statement-breakpoint
-- existing orders are numbered in the order they were placed; new ones continue after the last
WITH n AS (SELECT "id", 1000 + row_number() OVER (ORDER BY "created_at", "id") AS num FROM "orders")
UPDATE "orders" o SET "order_number" = n.num FROM n WHERE o."id" = n."id";--> statement-breakpoint
SELECT setval('orders_number_seq', greatest((SELECT max("order_number") FROM "orders"), 1000));--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "capture_id" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paypal_checkouts" ADD CONSTRAINT "paypal_checkouts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","at");--> statement-breakpoint
CREATE INDEX "order_refunds_order_idx" ON "order_refunds" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "order_refunds_pending_idx" ON "order_refunds" USING btree ("updated_at") WHERE "order_refunds"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "order_refunds_created_idx" ON "order_refunds" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "paypal_checkouts_order_idx" ON "paypal_checkouts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "paypal_checkouts_open_idx" ON "paypal_checkouts" USING btree ("checked_at","created_at") WHERE "paypal_checkouts"."resolved_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_number_uq" ON "orders" USING btree ("order_number");--> statement-breakpoint
CREATE INDEX "orders_cancelled_idx" ON "orders" USING btree ("cancelled_at" DESC NULLS LAST) WHERE "orders"."is_cancelled";--> statement-breakpoint
CREATE INDEX "orders_refunded_idx" ON "orders" USING btree ("created_at" DESC NULLS LAST) WHERE "orders"."refunded_cents" > 0;--> statement-breakpoint
CREATE INDEX "payments_refund_due_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'REFUND_DUE';--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_restock_within_qty" CHECK ("order_items"."restocked_qty" >= 0 and "order_items"."restocked_qty" <= "order_items"."qty");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refunds_within_total" CHECK ("orders"."refunded_cents" >= 0 and "orders"."refunded_cents" <= "orders"."total_cents");