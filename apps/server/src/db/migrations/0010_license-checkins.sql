CREATE TABLE "license_checkins" (
	"id" serial PRIMARY KEY NOT NULL,
	"key_id" integer NOT NULL,
	"domain" text NOT NULL,
	"version" text NOT NULL,
	"edition" "tier" NOT NULL,
	"covered" boolean NOT NULL,
	"count" bigint NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "license_checkins_count_positive" CHECK ("license_checkins"."count" > 0)
);
--> statement-breakpoint
ALTER TABLE "license_keys" ADD COLUMN "public_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "license_checkins" ADD CONSTRAINT "license_checkins_key_id_license_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."license_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "license_checkins_aggregate_unique" ON "license_checkins" USING btree ("key_id","domain","version","edition","covered");--> statement-breakpoint
CREATE INDEX "license_checkins_key_idx" ON "license_checkins" USING btree ("key_id","last_seen_at");--> statement-breakpoint
CREATE INDEX "license_checkins_uncovered_idx" ON "license_checkins" USING btree ("domain","last_seen_at") WHERE not "license_checkins"."covered";--> statement-breakpoint
ALTER TABLE "license_keys" ADD CONSTRAINT "license_keys_public_id_unique" UNIQUE("public_id");