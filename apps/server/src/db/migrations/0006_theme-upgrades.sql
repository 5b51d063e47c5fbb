CREATE TYPE "public"."theme_upgrade_run_status" AS ENUM('running', 'succeeded', 'failed');--> statement-breakpoint
CREATE TABLE "theme_upgrade_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"source_key_id" integer NOT NULL,
	"target_key_id" integer NOT NULL,
	"source_api_key" text NOT NULL,
	"target_api_key" text NOT NULL,
	"source_edition" "tier" NOT NULL,
	"target_edition" "tier" NOT NULL,
	"source_version" text,
	"target_version" text NOT NULL,
	"target_release_id" integer,
	"store" text,
	"move_connection" boolean DEFAULT false NOT NULL,
	"connection_moved" boolean DEFAULT false NOT NULL,
	"status" "theme_upgrade_run_status" DEFAULT 'running' NOT NULL,
	"report" jsonb,
	"report_html_key" text,
	"review_key" text,
	"output_key" text,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "theme_upgrade_runs_succeeded_has_output" CHECK ("theme_upgrade_runs"."status" <> 'succeeded' or ("theme_upgrade_runs"."output_key" is not null and "theme_upgrade_runs"."report" is not null)),
	CONSTRAINT "theme_upgrade_runs_moved_only_if_asked" CHECK (not "theme_upgrade_runs"."connection_moved" or "theme_upgrade_runs"."move_connection")
);
--> statement-breakpoint
ALTER TABLE "releases" ADD COLUMN "manifest" jsonb;--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD CONSTRAINT "theme_upgrade_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD CONSTRAINT "theme_upgrade_runs_source_key_id_license_keys_id_fk" FOREIGN KEY ("source_key_id") REFERENCES "public"."license_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD CONSTRAINT "theme_upgrade_runs_target_key_id_license_keys_id_fk" FOREIGN KEY ("target_key_id") REFERENCES "public"."license_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD CONSTRAINT "theme_upgrade_runs_target_release_id_releases_id_fk" FOREIGN KEY ("target_release_id") REFERENCES "public"."releases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "theme_upgrade_runs_user_idx" ON "theme_upgrade_runs" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "theme_upgrade_runs_running_target" ON "theme_upgrade_runs" USING btree ("target_key_id") WHERE "theme_upgrade_runs"."status" = 'running';--> statement-breakpoint
CREATE UNIQUE INDEX "theme_upgrade_runs_running_source" ON "theme_upgrade_runs" USING btree ("source_key_id") WHERE "theme_upgrade_runs"."status" = 'running';--> statement-breakpoint
CREATE UNIQUE INDEX "theme_upgrade_runs_running_store" ON "theme_upgrade_runs" USING btree ("store") WHERE "theme_upgrade_runs"."status" = 'running' and "theme_upgrade_runs"."store" is not null;