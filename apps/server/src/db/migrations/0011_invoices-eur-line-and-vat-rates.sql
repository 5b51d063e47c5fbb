CREATE TABLE "vat_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"country" text NOT NULL,
	"rate_bp" integer NOT NULL,
	"valid_from" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"reason" text NOT NULL,
	CONSTRAINT "vat_rates_country" CHECK ("vat_rates"."country" ~ '^[A-Z]{2}$'),
	CONSTRAINT "vat_rates_rate" CHECK ("vat_rates"."rate_bp" between 0 and 10000)
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "eur_line_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "eur_rate" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "eur_rate_date" date;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "eur_rate_source" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "vat_eur_cents" integer;--> statement-breakpoint
ALTER TABLE "vat_rates" ADD CONSTRAINT "vat_rates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vat_rates_country_idx" ON "vat_rates" USING btree ("country","valid_from");--> statement-breakpoint
CREATE INDEX "invoices_eur_line_pending_idx" ON "invoices" USING btree ("id") WHERE "invoices"."eur_line_required" and "invoices"."eur_rate" is null;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_eur_line_complete" CHECK (("invoices"."eur_rate" is null) = ("invoices"."eur_rate_date" is null) and ("invoices"."eur_rate" is null) = ("invoices"."eur_rate_source" is null) and ("invoices"."eur_rate" is null) = ("invoices"."vat_eur_cents" is null));--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_eur_rate_format" CHECK ("invoices"."eur_rate" is null or "invoices"."eur_rate" ~ '^[0-9]{1,9}([.][0-9]{1,9})?$');--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_vat_eur_positive" CHECK ("invoices"."vat_eur_cents" is null or "invoices"."vat_eur_cents" >= 0);--> statement-breakpoint
-- hand-written (modules/invoices, issue 19, ADR 036): an issued invoice or credit note stays immutable, except that
-- its EUR line (the ECB rate, that rate's date and source, the VAT in EUR) may be filled in once, when the document was
-- issued without it because the rate could not be had at the time. Any other UPDATE, and every DELETE, is refused.
CREATE OR REPLACE FUNCTION keyport_invoice_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.eur_line_required AND OLD.eur_rate IS NULL AND NEW.eur_rate IS NOT NULL
     AND (to_jsonb(NEW) - ARRAY['eur_rate', 'eur_rate_date', 'eur_rate_source', 'vat_eur_cents'])
       = (to_jsonb(OLD) - ARRAY['eur_rate', 'eur_rate_date', 'eur_rate_source', 'vat_eur_cents']) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% rows are append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
DROP TRIGGER "invoices_immutable" ON "invoices";
--> statement-breakpoint
CREATE TRIGGER invoices_immutable
  BEFORE UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION keyport_invoice_change();
