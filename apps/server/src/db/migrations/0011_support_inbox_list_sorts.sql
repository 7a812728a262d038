CREATE TABLE "support_threads" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"thread_key" varchar(260) NOT NULL,
	"thread_user_id" char(24),
	"thread_email" varchar(254),
	"name" varchar(80) DEFAULT '' NOT NULL,
	"email" varchar(254) DEFAULT '' NOT NULL,
	"subject" varchar(150) DEFAULT '' NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_content" varchar(200) DEFAULT '' NOT NULL,
	"last_from_admin" boolean DEFAULT false NOT NULL,
	"admin_unread" integer DEFAULT 0 NOT NULL,
	"user_unread" integer DEFAULT 0 NOT NULL,
	"admin_read_at" timestamp with time zone,
	"user_read_at" timestamp with time zone,
	"reply_mail_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "orders_total_idx";--> statement-breakpoint
ALTER TABLE "support_threads" ADD CONSTRAINT "support_threads_thread_user_id_users_id_fk" FOREIGN KEY ("thread_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "support_threads_key_uq" ON "support_threads" USING btree ("thread_key");--> statement-breakpoint
CREATE INDEX "support_threads_user_idx" ON "support_threads" USING btree ("thread_user_id");--> statement-breakpoint
CREATE INDEX "support_threads_last_idx" ON "support_threads" USING btree ("last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "support_threads_admin_unread_idx" ON "support_threads" USING btree ("last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "support_threads"."admin_unread" > 0;--> statement-breakpoint
CREATE INDEX "users_list_created_idx" ON "users" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "users"."is_guest" = false;--> statement-breakpoint
CREATE INDEX "users_list_username_idx" ON "users" USING btree (lower("username"),"id") WHERE "users"."is_guest" = false;--> statement-breakpoint
CREATE INDEX "users_list_email_idx" ON "users" USING btree ("email","id") WHERE "users"."is_guest" = false;--> statement-breakpoint
CREATE INDEX "users_list_name_idx" ON "users" USING btree (lower("last_name"),lower("first_name"),"id") WHERE "users"."is_guest" = false;--> statement-breakpoint
CREATE INDEX "orders_status_sort_idx" ON "orders" USING btree ((case when "is_cancelled" then 4 when "is_delivered" then 3 when "is_shipped" then 2 when "is_paid" then 1 else 0 end),"created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_total_idx" ON "orders" USING btree ("total_cents","id");--> statement-breakpoint
-- existing conversations get their inbox rows: newest message, the customer as they last wrote, and the
-- customer messages since support last answered counted as unread
WITH m AS (
	SELECT sm.*, CASE WHEN sm.thread_user_id IS NOT NULL THEN 'u:' || sm.thread_user_id ELSE 'e:' || lower(sm.thread_email) END AS k
	FROM support_messages sm
	WHERE sm.thread_user_id IS NOT NULL OR sm.thread_email IS NOT NULL
), last AS (
	SELECT DISTINCT ON (k) k, thread_user_id, lower(thread_email) AS te, content, from_admin, created_at
	FROM m ORDER BY k, created_at DESC, id DESC
), cust AS (
	SELECT DISTINCT ON (k) k, sender_name, sender_email, subject
	FROM m WHERE NOT from_admin ORDER BY k, created_at DESC, id DESC
), answered AS (
	SELECT k, max(created_at) AS at FROM m WHERE from_admin GROUP BY k
), unread AS (
	SELECT m.k, count(*)::int AS n FROM m LEFT JOIN answered a ON a.k = m.k
	WHERE NOT m.from_admin AND (a.at IS NULL OR m.created_at > a.at) GROUP BY m.k
)
INSERT INTO "support_threads" ("id", "thread_key", "thread_user_id", "thread_email", "name", "email", "subject", "last_message_at", "last_content", "last_from_admin", "admin_unread")
SELECT substr(md5('support_thread:' || last.k), 1, 24), last.k, last.thread_user_id, CASE WHEN last.thread_user_id IS NULL THEN last.te END,
	left(coalesce(cust.sender_name, ''), 80), coalesce(nullif(cust.sender_email, ''), CASE WHEN last.thread_user_id IS NULL THEN last.te ELSE '' END, ''),
	coalesce(cust.subject, ''), last.created_at, left(last.content, 200), last.from_admin, coalesce(unread.n, 0)
FROM last LEFT JOIN cust ON cust.k = last.k LEFT JOIN unread ON unread.k = last.k;
