CREATE TABLE "homepage_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"published" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"draft" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "homepage_settings_single_row" CHECK ("homepage_settings"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "homepage_settings" ADD CONSTRAINT "homepage_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;