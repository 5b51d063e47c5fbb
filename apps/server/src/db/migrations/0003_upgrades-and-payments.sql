CREATE TYPE "public"."upgrade_path" AS ENUM('LITE_TO_REGULAR', 'REGULAR_TO_PRO', 'LITE_TO_PRO');--> statement-breakpoint
CREATE TABLE "license_key_tier_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"license_key_id" integer NOT NULL,
	"from_tier" "tier" NOT NULL,
	"to_tier" "tier" NOT NULL,
	"reason" text NOT NULL,
	"reference" text NOT NULL,
	"actor_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_webhook_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_webhook_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "purchased_upgrades" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"license_key_id" integer NOT NULL,
	"license_key" text NOT NULL,
	"path" "upgrade_path" NOT NULL,
	"from_tier" "tier" NOT NULL,
	"to_tier" "tier" NOT NULL,
	"source" text NOT NULL,
	"order_id" integer,
	"token_id" integer,
	"amount_paid_cents" integer DEFAULT 0 NOT NULL,
	"subtotal_cents" integer DEFAULT 0 NOT NULL,
	"vat_amount_cents" integer DEFAULT 0 NOT NULL,
	"vat_rate_bp" integer DEFAULT 0 NOT NULL,
	"reverse_charge" boolean DEFAULT false NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" text DEFAULT 'completed' NOT NULL,
	"payment_completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"upgrade_processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchased_upgrades_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "purchased_upgrades_token_id_unique" UNIQUE("token_id"),
	CONSTRAINT "purchased_upgrades_one_source" CHECK (("purchased_upgrades"."order_id" is null) <> ("purchased_upgrades"."token_id" is null)),
	CONSTRAINT "purchased_upgrades_status" CHECK ("purchased_upgrades"."status" in ('completed', 'refunded'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"client_secret" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"description" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"receipt_email" text,
	"idempotency_key" text NOT NULL,
	"last_error" text,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_payments_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "upgrade_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"license_key_id" integer NOT NULL,
	"license_key" text NOT NULL,
	"path" "upgrade_path" NOT NULL,
	"from_tier" "tier" NOT NULL,
	"to_tier" "tier" NOT NULL,
	"price_id" text NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"base_amount_cents" integer NOT NULL,
	"vat_amount_cents" integer NOT NULL,
	"total_amount_cents" integer NOT NULL,
	"vat_rate_bp" integer NOT NULL,
	"reverse_charge" boolean NOT NULL,
	"billing" jsonb NOT NULL,
	"vat_id" text,
	"vat_country" text,
	"vat_consultation_number" text,
	"vat_checked_at" timestamp with time zone,
	"provider" text NOT NULL,
	"provider_payment_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"processing_error" text,
	"last_payment_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"payment_completed_at" timestamp with time zone,
	"upgrade_processed_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "upgrade_orders_total" CHECK ("upgrade_orders"."total_amount_cents" = "upgrade_orders"."base_amount_cents" + "upgrade_orders"."vat_amount_cents"),
	CONSTRAINT "upgrade_orders_amounts" CHECK ("upgrade_orders"."base_amount_cents" > 0 and "upgrade_orders"."vat_amount_cents" >= 0),
	CONSTRAINT "upgrade_orders_status" CHECK ("upgrade_orders"."status" in ('pending', 'superseded', 'completed', 'needs_refund', 'review', 'refunded'))
);
--> statement-breakpoint
CREATE TABLE "upgrade_prices" (
	"path" "upgrade_path" PRIMARY KEY NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"provider_price_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "upgrade_prices_amount_positive" CHECK ("upgrade_prices"."amount_cents" > 0),
	CONSTRAINT "upgrade_prices_currency_usd" CHECK ("upgrade_prices"."currency" = 'usd')
);
--> statement-breakpoint
CREATE TABLE "upgrade_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"path" "upgrade_path" NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone,
	"used_by" integer,
	"used_on_key_id" integer,
	CONSTRAINT "upgrade_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "vat_checks" (
	"vat_number" text PRIMARY KEY NOT NULL,
	"valid" boolean NOT NULL,
	"country_code" text,
	"company_name" text,
	"company_address" text,
	"consultation_number" text,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "license_key_tier_changes" ADD CONSTRAINT "license_key_tier_changes_license_key_id_license_keys_id_fk" FOREIGN KEY ("license_key_id") REFERENCES "public"."license_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "license_key_tier_changes" ADD CONSTRAINT "license_key_tier_changes_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchased_upgrades" ADD CONSTRAINT "purchased_upgrades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchased_upgrades" ADD CONSTRAINT "purchased_upgrades_license_key_id_license_keys_id_fk" FOREIGN KEY ("license_key_id") REFERENCES "public"."license_keys"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchased_upgrades" ADD CONSTRAINT "purchased_upgrades_order_id_upgrade_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."upgrade_orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchased_upgrades" ADD CONSTRAINT "purchased_upgrades_token_id_upgrade_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."upgrade_tokens"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD CONSTRAINT "upgrade_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD CONSTRAINT "upgrade_orders_license_key_id_license_keys_id_fk" FOREIGN KEY ("license_key_id") REFERENCES "public"."license_keys"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_prices" ADD CONSTRAINT "upgrade_prices_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD CONSTRAINT "upgrade_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD CONSTRAINT "upgrade_tokens_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_tokens" ADD CONSTRAINT "upgrade_tokens_used_on_key_id_license_keys_id_fk" FOREIGN KEY ("used_on_key_id") REFERENCES "public"."license_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "license_key_tier_changes_key_idx" ON "license_key_tier_changes" USING btree ("license_key_id","id");--> statement-breakpoint
CREATE INDEX "purchased_upgrades_user_idx" ON "purchased_upgrades" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_orders_provider_payment_unique" ON "upgrade_orders" USING btree ("provider","provider_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_orders_one_pending_per_key" ON "upgrade_orders" USING btree ("license_key_id") WHERE "upgrade_orders"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "upgrade_orders_user_idx" ON "upgrade_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_prices_provider_price_id_unique" ON "upgrade_prices" USING btree ("provider_price_id");--> statement-breakpoint
CREATE INDEX "upgrade_tokens_used_by_idx" ON "upgrade_tokens" USING btree ("used_by");