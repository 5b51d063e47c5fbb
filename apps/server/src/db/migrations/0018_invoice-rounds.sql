DROP INDEX "invoices_one_per_order_and_kind";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "round" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_per_order_kind_and_round" ON "invoices" USING btree ("order_id","kind","round");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_credit_note_per_invoice" ON "invoices" USING btree ("credited_invoice_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_round_positive" CHECK ("invoices"."round" > 0);