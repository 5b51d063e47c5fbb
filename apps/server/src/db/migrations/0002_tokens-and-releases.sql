CREATE TABLE "releases" (
	"id" serial PRIMARY KEY NOT NULL,
	"edition" "tier" NOT NULL,
	"version" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"theme_name" text,
	"storage_key" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "auth_token" text;--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "token_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "token_issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "releases_edition_version_unique" ON "releases" USING btree ("edition","version");--> statement-breakpoint
CREATE INDEX "releases_edition_idx" ON "releases" USING btree ("edition","id");