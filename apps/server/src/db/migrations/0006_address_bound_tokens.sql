ALTER TABLE "auth_tokens" ADD COLUMN "email" varchar(254);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_email" varchar(254);--> statement-breakpoint
-- links sent before this migration are bound to the address the account has now
UPDATE "auth_tokens" SET "email" = "users"."email" FROM "users" WHERE "users"."id" = "auth_tokens"."user_id";
