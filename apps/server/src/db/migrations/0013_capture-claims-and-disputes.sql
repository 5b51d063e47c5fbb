ALTER TABLE "upgrade_orders" DROP CONSTRAINT "upgrade_orders_status";--> statement-breakpoint
DROP INDEX "upgrade_orders_one_pending_per_key";--> statement-breakpoint
DROP INDEX "upgrade_orders_one_pending_credit_pack_per_user";--> statement-breakpoint
ALTER TABLE "sandbox_payments" ADD COLUMN "dispute" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox_paypal_orders" ADD COLUMN "dispute" jsonb;--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD COLUMN "dispute_state" text;--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD COLUMN "dispute_ref" text;--> statement-breakpoint
CREATE INDEX "upgrade_orders_status_updated_idx" ON "upgrade_orders" USING btree ("status","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_orders_one_pending_per_key" ON "upgrade_orders" USING btree ("license_key_id") WHERE "upgrade_orders"."status" in ('pending', 'capturing') and "upgrade_orders"."kind" = 'upgrade';--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_orders_one_pending_credit_pack_per_user" ON "upgrade_orders" USING btree ("user_id") WHERE "upgrade_orders"."status" in ('pending', 'capturing') and "upgrade_orders"."kind" = 'credit_pack';--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD CONSTRAINT "upgrade_orders_dispute_state" CHECK ("upgrade_orders"."dispute_state" is null or "upgrade_orders"."dispute_state" in ('open', 'funds_withdrawn', 'won', 'lost'));--> statement-breakpoint
ALTER TABLE "upgrade_orders" ADD CONSTRAINT "upgrade_orders_status" CHECK ("upgrade_orders"."status" in ('pending', 'capturing', 'superseded', 'void', 'expired', 'completed', 'needs_refund', 'review', 'refunded', 'disputed', 'charged_back'));