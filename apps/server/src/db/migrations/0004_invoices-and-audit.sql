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
ALTER TABLE "upgrade_orders" DROP CONSTRAINT "upgrade_orders_status";--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_upgrade_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."upgrade_orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credited_invoice_id_invoices_id_fk" FOREIGN KEY ("credited_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_customer_at_idx" ON "audit_log" USING btree ("customer_user_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_action_at_idx" ON "audit_log" USING btree ("action","at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_kind_year_sequence_unique" ON "invoices" USING btree ("kind","year","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_unique" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_per_order_and_kind" ON "invoices" USING btree ("order_id","kind");--> statement-breakpoint
CREATE INDEX "invoices_user_idx" ON "invoices" USING btree ("user_id","issued_at");--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD CONSTRAINT "upgrade_orders_status" CHECK ("upgrade_orders"."status" in ('pending', 'superseded', 'completed', 'needs_refund', 'review', 'refunded', 'disputed'));