CREATE TABLE "credit_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"owed" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_accounts_balance_not_negative" CHECK ("credit_accounts"."balance" >= 0),
	CONSTRAINT "credit_accounts_owed_not_negative" CHECK ("credit_accounts"."owed" >= 0),
	CONSTRAINT "credit_accounts_not_both" CHECK ("credit_accounts"."balance" = 0 or "credit_accounts"."owed" = 0)
);
--> statement-breakpoint
CREATE TABLE "credit_ledger" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"owed_after" integer NOT NULL,
	"source_ref" text NOT NULL,
	"note" text,
	"actor_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_ledger_kind" CHECK ("credit_ledger"."kind" in ('grant', 'debit', 'purchase', 'clawback')),
	CONSTRAINT "credit_ledger_amount_not_zero" CHECK ("credit_ledger"."amount" <> 0),
	CONSTRAINT "credit_ledger_sign" CHECK (("credit_ledger"."kind" in ('grant', 'purchase') and "credit_ledger"."amount" > 0) or ("credit_ledger"."kind" in ('debit', 'clawback') and "credit_ledger"."amount" < 0)),
	CONSTRAINT "credit_ledger_after_not_negative" CHECK ("credit_ledger"."balance_after" >= 0 and "credit_ledger"."owed_after" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_packs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"credits" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"provider_price_id" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_packs_credits_positive" CHECK ("credit_packs"."credits" > 0),
	CONSTRAINT "credit_packs_amount_positive" CHECK ("credit_packs"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "credit_redemptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"redeem_product_id" integer NOT NULL,
	"cost_credits" integer NOT NULL,
	"tier" "tier" NOT NULL,
	"license_key_id" integer NOT NULL,
	"ledger_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_redemptions_license_key_id_unique" UNIQUE("license_key_id"),
	CONSTRAINT "credit_redemptions_ledger_id_unique" UNIQUE("ledger_id"),
	CONSTRAINT "credit_redemptions_cost_positive" CHECK ("credit_redemptions"."cost_credits" > 0)
);
--> statement-breakpoint
CREATE TABLE "redeem_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"grant_type" text NOT NULL,
	"grant_value" text NOT NULL,
	"cost_credits" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redeem_products_cost_positive" CHECK ("redeem_products"."cost_credits" > 0)
);
--> statement-breakpoint
CREATE TABLE "store_report_domains" (
	"report_id" integer NOT NULL,
	"position" integer NOT NULL,
	"user_id" integer NOT NULL,
	"submitted" text NOT NULL,
	"domain" text NOT NULL,
	CONSTRAINT "store_report_domains_report_id_position_pk" PRIMARY KEY("report_id","position"),
	CONSTRAINT "store_report_domains_position" CHECK ("store_report_domains"."position" between 0 and 4)
);
--> statement-breakpoint
CREATE TABLE "store_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"review_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_reports_status" CHECK ("store_reports"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "store_reports_reviewed" CHECK (("store_reports"."status" = 'pending') = ("store_reports"."reviewed_at" is null))
);
--> statement-breakpoint
DROP INDEX "upgrade_orders_one_pending_per_key";--> statement-breakpoint
ALTER TABLE "upgrade_orders" ALTER COLUMN "license_key_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "upgrade_orders" ALTER COLUMN "license_key" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "upgrade_orders" ALTER COLUMN "path" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "upgrade_orders" ALTER COLUMN "from_tier" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "upgrade_orders" ALTER COLUMN "to_tier" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD COLUMN "kind" text DEFAULT 'upgrade' NOT NULL;--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD COLUMN "credit_pack_id" integer;--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD COLUMN "credits" integer;--> statement-breakpoint
ALTER TABLE "credit_accounts" ADD CONSTRAINT "credit_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_redemptions" ADD CONSTRAINT "credit_redemptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_redemptions" ADD CONSTRAINT "credit_redemptions_redeem_product_id_redeem_products_id_fk" FOREIGN KEY ("redeem_product_id") REFERENCES "public"."redeem_products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_redemptions" ADD CONSTRAINT "credit_redemptions_license_key_id_license_keys_id_fk" FOREIGN KEY ("license_key_id") REFERENCES "public"."license_keys"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_redemptions" ADD CONSTRAINT "credit_redemptions_ledger_id_credit_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."credit_ledger"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_report_domains" ADD CONSTRAINT "store_report_domains_report_id_store_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."store_reports"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_report_domains" ADD CONSTRAINT "store_report_domains_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_reports" ADD CONSTRAINT "store_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_reports" ADD CONSTRAINT "store_reports_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_source_ref_unique" ON "credit_ledger" USING btree ("source_ref");--> statement-breakpoint
CREATE INDEX "credit_ledger_user_idx" ON "credit_ledger" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "credit_redemptions_user_idx" ON "credit_redemptions" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_report_domains_user_domain_unique" ON "store_report_domains" USING btree ("user_id","domain");--> statement-breakpoint
CREATE INDEX "store_report_domains_domain_idx" ON "store_report_domains" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "store_reports_status_idx" ON "store_reports" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "store_reports_user_idx" ON "store_reports" USING btree ("user_id","id");--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD CONSTRAINT "upgrade_orders_credit_pack_id_credit_packs_id_fk" FOREIGN KEY ("credit_pack_id") REFERENCES "public"."credit_packs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "license_keys_main_url_idx" ON "license_keys" USING btree ("main_url");--> statement-breakpoint
CREATE INDEX "license_keys_myshopify_idx" ON "license_keys" USING btree ("myshopify");--> statement-breakpoint
CREATE INDEX "license_keys_secondary_url_idx" ON "license_keys" USING btree ("secondary_url");--> statement-breakpoint
CREATE INDEX "license_keys_linked_app_store_idx" ON "license_keys" USING btree ("linked_app_store");--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_orders_one_pending_credit_pack_per_user" ON "upgrade_orders" USING btree ("user_id") WHERE "upgrade_orders"."status" = 'pending' and "upgrade_orders"."kind" = 'credit_pack';--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_orders_one_pending_per_key" ON "upgrade_orders" USING btree ("license_key_id") WHERE "upgrade_orders"."status" = 'pending' and "upgrade_orders"."kind" = 'upgrade';--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD CONSTRAINT "upgrade_orders_kind_fields" CHECK (("upgrade_orders"."kind" = 'upgrade' and "upgrade_orders"."license_key_id" is not null and "upgrade_orders"."license_key" is not null
            and "upgrade_orders"."path" is not null and "upgrade_orders"."from_tier" is not null and "upgrade_orders"."to_tier" is not null
            and "upgrade_orders"."credit_pack_id" is null and "upgrade_orders"."credits" is null)
       or ("upgrade_orders"."kind" = 'credit_pack' and "upgrade_orders"."credit_pack_id" is not null and "upgrade_orders"."credits" > 0
            and "upgrade_orders"."license_key_id" is null and "upgrade_orders"."path" is null));