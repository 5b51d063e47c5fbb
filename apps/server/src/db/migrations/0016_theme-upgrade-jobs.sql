CREATE TYPE "public"."theme_upgrade_phase" AS ENUM('queued', 'upload', 'detect', 'merge', 'check', 'write');--> statement-breakpoint
ALTER TYPE "public"."theme_upgrade_run_status" ADD VALUE 'cancelled';--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD COLUMN "error_message" text;--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD COLUMN "job_id" integer;--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD COLUMN "upload_key" text;--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD COLUMN "phase" "theme_upgrade_phase" DEFAULT 'queued' NOT NULL;--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD COLUMN "progress_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD COLUMN "progress_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD COLUMN "consent_store" text;--> statement-breakpoint
ALTER TABLE "theme_upgrade_runs" ADD COLUMN "files_deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "theme_upgrade_runs_expires_idx" ON "theme_upgrade_runs" USING btree ("expires_at") WHERE "theme_upgrade_runs"."files_deleted_at" is null;