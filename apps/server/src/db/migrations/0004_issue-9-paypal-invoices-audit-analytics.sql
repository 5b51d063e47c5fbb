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
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"action" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text NOT NULL,
	"customer_user_id" integer,
	"reason" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "audit_log_actor_type" CHECK ("audit_log"."actor_type" in ('user', 'staff', 'system', 'provider'))
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "invoice_counters_series_year_pk" PRIMARY KEY("series","year"),
	CONSTRAINT "invoice_counters_series" CHECK ("invoice_counters"."series" in ('invoice', 'credit_note')),
	CONSTRAINT "invoice_counters_positive" CHECK ("invoice_counters"."last_number" > 0)
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"order_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"credited_invoice_id" integer,
	"issued_at" timestamp with time zone NOT NULL,
	"payment_date" timestamp with time zone NOT NULL,
	"seller" jsonb NOT NULL,
	"buyer" jsonb NOT NULL,
	"line_description" text NOT NULL,
	"currency" text NOT NULL,
	"subtotal_cents" integer NOT NULL,
	"vat_rate_bp" integer NOT NULL,
	"vat_cents" integer NOT NULL,
	"total_cents" integer NOT NULL,
	"reverse_charge" boolean NOT NULL,
	"buyer_vat_id" text,
	"vat_consultation_number" text,
	"provider" text NOT NULL,
	"provider_payment_id" text,
	CONSTRAINT "invoices_kind" CHECK ("invoices"."kind" in ('invoice', 'credit_note')),
	CONSTRAINT "invoices_total" CHECK ("invoices"."total_cents" = "invoices"."subtotal_cents" + "invoices"."vat_cents"),
	CONSTRAINT "invoices_amounts" CHECK ("invoices"."subtotal_cents" > 0 and "invoices"."vat_cents" >= 0),
	CONSTRAINT "invoices_sequence_positive" CHECK ("invoices"."sequence" > 0),
	CONSTRAINT "invoices_credit_note_refers" CHECK (("invoices"."kind" = 'credit_note') = ("invoices"."credited_invoice_id" is not null)),
	CONSTRAINT "invoices_reverse_charge_evidence" CHECK (not "invoices"."reverse_charge" or "invoices"."buyer_vat_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "sandbox_paypal_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"custom_id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"return_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"capture_id" text,
	"capture_status" text,
	"captured_cents" integer DEFAULT 0 NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_paypal_orders_request_id_unique" UNIQUE("request_id"),
	CONSTRAINT "sandbox_paypal_orders_capture_id_unique" UNIQUE("capture_id"),
	CONSTRAINT "sandbox_paypal_orders_status" CHECK ("sandbox_paypal_orders"."status" in ('CREATED', 'APPROVED', 'VOIDED', 'COMPLETED')),
	CONSTRAINT "sandbox_paypal_orders_amounts" CHECK ("sandbox_paypal_orders"."amount_cents" > 0 and "sandbox_paypal_orders"."refunded_cents" between 0 and "sandbox_paypal_orders"."captured_cents")
);
--> statement-breakpoint
ALTER TABLE "upgrade_orders" DROP CONSTRAINT "upgrade_orders_status";--> statement-breakpoint
ALTER TABLE "analytics_outbox" ADD CONSTRAINT "analytics_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_upgrade_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."upgrade_orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credited_invoice_id_invoices_id_fk" FOREIGN KEY ("credited_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_outbox_unique_event" ON "analytics_outbox" USING btree ("user_id","kind","name","unique_id");--> statement-breakpoint
CREATE INDEX "analytics_outbox_due_idx" ON "analytics_outbox" USING btree ("next_attempt_at","id") WHERE "analytics_outbox"."delivered_at" is null and "analytics_outbox"."failed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_sandbox_deliveries_unique_event" ON "analytics_sandbox_deliveries" USING btree ("email","name","unique_id");--> statement-breakpoint
CREATE INDEX "analytics_sandbox_deliveries_newest_idx" ON "analytics_sandbox_deliveries" USING btree ("delivered_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_customer_at_idx" ON "audit_log" USING btree ("customer_user_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_action_at_idx" ON "audit_log" USING btree ("action","at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_kind_year_sequence_unique" ON "invoices" USING btree ("kind","year","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_unique" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_per_order_and_kind" ON "invoices" USING btree ("order_id","kind");--> statement-breakpoint
CREATE INDEX "invoices_user_idx" ON "invoices" USING btree ("user_id","issued_at");--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD CONSTRAINT "upgrade_orders_status" CHECK ("upgrade_orders"."status" in ('pending', 'superseded', 'completed', 'needs_refund', 'review', 'refunded', 'disputed'));