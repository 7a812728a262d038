CREATE TABLE "coupon_uses" (
	"coupon_id" char(24) NOT NULL,
	"email" varchar(254) NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"max_uses" integer,
	CONSTRAINT "coupon_uses_coupon_id_email_pk" PRIMARY KEY("coupon_id","email"),
	CONSTRAINT "coupon_uses_within_limit" CHECK ("coupon_uses"."uses" >= 0 and ("coupon_uses"."max_uses" is null or "coupon_uses"."uses" <= "coupon_uses"."max_uses"))
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"code" varchar(32) NOT NULL,
	"type" varchar(16) NOT NULL,
	"value" integer DEFAULT 0 NOT NULL,
	"min_items_cents" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"usage_limit" integer,
	"per_customer_limit" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"times_used" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_type_known" CHECK ("coupons"."type" in ('percent', 'fixed', 'free_shipping')),
	CONSTRAINT "coupons_usage_within_limit" CHECK ("coupons"."times_used" >= 0 and ("coupons"."usage_limit" is null or "coupons"."times_used" <= "coupons"."usage_limit"))
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_amounts_nonneg";--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "count_in_stock" integer;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "sku" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "from_variant_stock" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "coupon_id" char(24);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "coupon_code" varchar(32);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "coupon_uses" ADD CONSTRAINT "coupon_uses_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_code_uq" ON "coupons" USING btree ("code");--> statement-breakpoint
CREATE INDEX "coupons_created_idx" ON "coupons" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_sku_uq" ON "product_variants" USING btree (lower("sku") text_pattern_ops) WHERE "product_variants"."sku" <> '';--> statement-breakpoint
CREATE INDEX "orders_coupon_idx" ON "orders" USING btree ("coupon_id");--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_stock_nonneg" CHECK ("product_variants"."count_in_stock" is null or "product_variants"."count_in_stock" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_nonneg" CHECK ("orders"."items_cents" >= 0 and "orders"."tax_cents" >= 0 and "orders"."shipping_cents" >= 0 and "orders"."discount_cents" >= 0);