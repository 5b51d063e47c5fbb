CREATE TABLE "job_schedules" (
	"name" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"last_run_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"dedupe_key" text,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"progress" jsonb,
	"cancel_requested_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_status" CHECK ("jobs"."status" in ('queued', 'running', 'done', 'dead', 'cancelled')),
	CONSTRAINT "jobs_attempts" CHECK ("jobs"."attempts" >= 0)
);
--> statement-breakpoint
-- hand-written: the emails and analytics rows still waiting when this version starts become jobs, before the
-- outboxes' own delivery columns go (ADR 038). Failed emails were never retried before: they get a fresh start.
INSERT INTO "jobs" ("kind", "payload", "run_at")
SELECT 'email.send', jsonb_build_object('emailId', "id", 'to', "to", 'subject', "subject"), now()
FROM "email_outbox" WHERE "sent_at" IS NULL ORDER BY "id";--> statement-breakpoint
-- hand-written: (continued) analytics rows: pending ones queued at their next attempt, given-up ones dead.
INSERT INTO "jobs" ("kind", "payload", "status", "run_at", "attempts", "last_error", "finished_at")
SELECT 'analytics.deliver',
  jsonb_build_object('outboxId', "id", 'event', CASE WHEN "kind" = 'profile' THEN 'profile update' ELSE "name" END),
  CASE WHEN "failed_at" IS NULL THEN 'queued' ELSE 'dead' END,
  "next_attempt_at", "attempts", "last_error", "failed_at"
FROM "analytics_outbox" WHERE "delivered_at" IS NULL ORDER BY "id";--> statement-breakpoint
ALTER TABLE "analytics_outbox" DROP CONSTRAINT "analytics_outbox_attempts";--> statement-breakpoint
DROP INDEX "analytics_outbox_due_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_kind_dedupe_key_unique" ON "jobs" USING btree ("kind","dedupe_key");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at","id") WHERE "jobs"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "jobs_running_idx" ON "jobs" USING btree ("locked_until") WHERE "jobs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "jobs_problems_idx" ON "jobs" USING btree ("status","id") WHERE "jobs"."status" = 'dead' or "jobs"."last_error" is not null;--> statement-breakpoint
ALTER TABLE "analytics_outbox" DROP COLUMN "attempts";--> statement-breakpoint
ALTER TABLE "analytics_outbox" DROP COLUMN "next_attempt_at";--> statement-breakpoint
ALTER TABLE "analytics_outbox" DROP COLUMN "claimed_until";--> statement-breakpoint
ALTER TABLE "analytics_outbox" DROP COLUMN "last_error";--> statement-breakpoint
ALTER TABLE "analytics_outbox" DROP COLUMN "failed_at";--> statement-breakpoint
ALTER TABLE "email_outbox" DROP COLUMN "error";