ALTER TABLE "upgrade_tokens" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD COLUMN "revoked_by" integer;--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD CONSTRAINT "upgrade_tokens_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD CONSTRAINT "upgrade_tokens_used_or_revoked" CHECK ("upgrade_tokens"."used_at" is null or "upgrade_tokens"."revoked_at" is null);