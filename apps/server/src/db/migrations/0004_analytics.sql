CREATE TABLE "analytics_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"unique_id" text NOT NULL,
	"email" text,
	"payload" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"claimed_until" timestamp with time zone,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_outbox_kind" CHECK ("analytics_outbox"."kind" in ('event', 'profile')),
	CONSTRAINT "analytics_outbox_attempts" CHECK ("analytics_outbox"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "analytics_sandbox_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"unique_id" text,
	"properties" jsonb NOT NULL,
	"value" double precision,
	"occurred_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_sandbox_deliveries_kind" CHECK ("analytics_sandbox_deliveries"."kind" in ('event', 'profile'))
);
--> statement-breakpoint
ALTER TABLE "analytics_outbox" ADD CONSTRAINT "analytics_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_outbox_unique_event" ON "analytics_outbox" USING btree ("user_id","kind","name","unique_id");--> statement-breakpoint
CREATE INDEX "analytics_outbox_due_idx" ON "analytics_outbox" USING btree ("next_attempt_at","id") WHERE "analytics_outbox"."delivered_at" is null and "analytics_outbox"."failed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_sandbox_deliveries_unique_event" ON "analytics_sandbox_deliveries" USING btree ("email","name","unique_id");--> statement-breakpoint
CREATE INDEX "analytics_sandbox_deliveries_newest_idx" ON "analytics_sandbox_deliveries" USING btree ("delivered_at","id");