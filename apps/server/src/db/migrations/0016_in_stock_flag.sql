-- Whether something of a product can be bought now, given its own count: with variants, some variant has
-- stock (its own count, or when it has none the product's); without variants, its own count is above 0.
-- One index scan of the product's variants (a product without any gives NULL: its own count decides).
CREATE FUNCTION "product_in_stock"(product char(24), own integer) RETURNS boolean LANGUAGE sql STABLE AS $$
	SELECT coalesce(bool_or(coalesce(v."count_in_stock", own) > 0), own > 0)
	FROM "product_variants" v WHERE v."product_id" = product
$$;--> statement-breakpoint
-- Existing rows take true without being rewritten (a constant default is stored once), then the few out of
-- stock are written; new rows default to false, and the trigger below sets them anyway.
ALTER TABLE "products" ADD COLUMN "in_stock" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "products" SET "in_stock" = false WHERE NOT "product_in_stock"("id", "count_in_stock");--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "in_stock" SET DEFAULT false;--> statement-breakpoint
-- A product's flag is worked out whenever its count crosses 0 or the flag itself is written: a count that
-- stays on one side of 0 (most orders) cannot change it, and a flag written by hand is put right.
CREATE FUNCTION "products_set_in_stock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW."in_stock" := "product_in_stock"(NEW."id", NEW."count_in_stock");
	RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "products_in_stock_insert" BEFORE INSERT ON "products"
	FOR EACH ROW EXECUTE FUNCTION "products_set_in_stock"();--> statement-breakpoint
CREATE TRIGGER "products_in_stock_update" BEFORE UPDATE OF "count_in_stock", "in_stock" ON "products"
	FOR EACH ROW
	WHEN ((OLD."count_in_stock" > 0) <> (NEW."count_in_stock" > 0) OR OLD."in_stock" IS DISTINCT FROM NEW."in_stock")
	EXECUTE FUNCTION "products_set_in_stock"();--> statement-breakpoint
-- A variant added, removed, moved, or whose own count crosses 0 (or starts or stops drawing on the
-- product's) may change its product's flag: the product row is written only when the flag changes. Every
-- writer of a variant's stock holds its product's row first (placing an order locks the products, then
-- the variants), so this update takes no lock its transaction does not hold already. AFTER row triggers
-- run when the whole statement is done, so they see every product and variant it changed. The flag is
-- flipped, and the products trigger above works it out again from the stock as it is now.
CREATE FUNCTION "product_variants_refresh_in_stock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		UPDATE "products" p SET "in_stock" = NOT p."in_stock"
		WHERE p."id" = OLD."product_id" AND p."in_stock" <> "product_in_stock"(p."id", p."count_in_stock");
	END IF;
	IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."product_id" <> OLD."product_id") THEN
		UPDATE "products" p SET "in_stock" = NOT p."in_stock"
		WHERE p."id" = NEW."product_id" AND p."in_stock" <> "product_in_stock"(p."id", p."count_in_stock");
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "product_variants_in_stock_insert_delete" AFTER INSERT OR DELETE ON "product_variants"
	FOR EACH ROW EXECUTE FUNCTION "product_variants_refresh_in_stock"();--> statement-breakpoint
CREATE TRIGGER "product_variants_in_stock_update" AFTER UPDATE OF "count_in_stock", "product_id" ON "product_variants"
	FOR EACH ROW
	WHEN ((OLD."count_in_stock" > 0) IS DISTINCT FROM (NEW."count_in_stock" > 0) OR OLD."product_id" <> NEW."product_id")
	EXECUTE FUNCTION "product_variants_refresh_in_stock"();--> statement-breakpoint
CREATE INDEX "products_in_stock_created_idx" ON "products" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "products"."status" = 'active' and "products"."in_stock";
