CREATE TABLE "release_current" (
	"edition" "tier" PRIMARY KEY NOT NULL,
	"release_id" integer NOT NULL,
	"set_by" integer,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "release_downloads" (
	"id" serial PRIMARY KEY NOT NULL,
	"release_id" integer NOT NULL,
	"edition" "tier" NOT NULL,
	"version" text NOT NULL,
	"key_id" integer NOT NULL,
	"user_id" integer,
	"store" text,
	"via" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "license_keys_main_url_idx";--> statement-breakpoint
DROP INDEX "license_keys_myshopify_idx";--> statement-breakpoint
DROP INDEX "license_keys_secondary_url_idx";--> statement-breakpoint
DROP INDEX "license_keys_linked_app_store_idx";--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD COLUMN "revoked_by" integer;--> statement-breakpoint
ALTER TABLE "release_current" ADD CONSTRAINT "release_current_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_current" ADD CONSTRAINT "release_current_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_downloads" ADD CONSTRAINT "release_downloads_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_downloads" ADD CONSTRAINT "release_downloads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "release_downloads_key_idx" ON "release_downloads" USING btree ("key_id","id");--> statement-breakpoint
CREATE INDEX "release_downloads_edition_idx" ON "release_downloads" USING btree ("edition","id");--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD CONSTRAINT "upgrade_tokens_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "license_keys_main_url_pattern_idx" ON "license_keys" USING btree ("main_url" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "license_keys_myshopify_pattern_idx" ON "license_keys" USING btree ("myshopify" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "license_keys_secondary_url_pattern_idx" ON "license_keys" USING btree ("secondary_url" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "license_keys_linked_app_store_pattern_idx" ON "license_keys" USING btree ("linked_app_store" text_pattern_ops);--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD CONSTRAINT "upgrade_tokens_used_or_revoked" CHECK ("upgrade_tokens"."used_at" is null or "upgrade_tokens"."revoked_at" is null);