-- Issue 21 (ADR 044): one orders table. The legacy store's orders (auth's former `orders`: description and date)
-- move into the payments module's table, renamed from `upgrade_orders` to `orders` (it always held credit packs too).
-- Kept orders keep their ids, so invoices, credit notes and purchased upgrades still point at them; each legacy order
-- gets a new id from the one sequence (nothing referenced the legacy ids).

-- 1. The legacy table steps aside (its names are the new table's).
ALTER TABLE "orders" RENAME TO "legacy_orders";--> statement-breakpoint
ALTER TABLE "legacy_orders" DROP CONSTRAINT "orders_user_id_users_id_fk";--> statement-breakpoint
ALTER INDEX "orders_pkey" RENAME TO "legacy_orders_pkey";--> statement-breakpoint
ALTER INDEX "orders_user_idx" RENAME TO "legacy_orders_user_idx";--> statement-breakpoint
ALTER SEQUENCE "orders_id_seq" RENAME TO "legacy_orders_id_seq";--> statement-breakpoint

-- 2. `upgrade_orders` becomes `orders`, with its sequence, keys, checks and indexes.
ALTER TABLE "upgrade_orders" RENAME TO "orders";--> statement-breakpoint
ALTER SEQUENCE "upgrade_orders_id_seq" RENAME TO "orders_id_seq";--> statement-breakpoint
ALTER INDEX "upgrade_orders_pkey" RENAME TO "orders_pkey";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "upgrade_orders_user_id_users_id_fk" TO "orders_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "upgrade_orders_license_key_id_license_keys_id_fk" TO "orders_license_key_id_license_keys_id_fk";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "upgrade_orders_credit_pack_id_credit_packs_id_fk" TO "orders_credit_pack_id_credit_packs_id_fk";--> statement-breakpoint
ALTER TABLE "invoices" RENAME CONSTRAINT "invoices_order_id_upgrade_orders_id_fk" TO "invoices_order_id_orders_id_fk";--> statement-breakpoint
ALTER TABLE "purchased_upgrades" RENAME CONSTRAINT "purchased_upgrades_order_id_upgrade_orders_id_fk" TO "purchased_upgrades_order_id_orders_id_fk";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "upgrade_orders_total" TO "orders_total";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "upgrade_orders_status" TO "orders_status";--> statement-breakpoint
ALTER TABLE "orders" RENAME CONSTRAINT "upgrade_orders_dispute_state" TO "orders_dispute_state";--> statement-breakpoint
ALTER INDEX "upgrade_orders_provider_payment_unique" RENAME TO "orders_provider_payment_unique";--> statement-breakpoint
ALTER INDEX "upgrade_orders_one_pending_per_key" RENAME TO "orders_one_pending_per_key";--> statement-breakpoint
ALTER INDEX "upgrade_orders_one_pending_credit_pack_per_user" RENAME TO "orders_one_pending_credit_pack_per_user";--> statement-breakpoint
ALTER INDEX "upgrade_orders_status_updated_idx" RENAME TO "orders_status_updated_idx";--> statement-breakpoint
ALTER INDEX "upgrade_orders_user_idx" RENAME TO "orders_user_idx";--> statement-breakpoint

-- 3. Room for a legacy order: its description; amounts 0; no key, pack or payment.
ALTER TABLE "orders" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "upgrade_orders_amounts";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "upgrade_orders_kind_fields";--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts" CHECK (("orders"."kind" <> 'legacy' and "orders"."base_amount_cents" > 0 and "orders"."vat_amount_cents" >= 0)
       or ("orders"."kind" = 'legacy' and "orders"."base_amount_cents" = 0 and "orders"."vat_amount_cents" = 0));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_kind_fields" CHECK (("orders"."kind" = 'upgrade' and "orders"."license_key_id" is not null and "orders"."license_key" is not null
            and "orders"."path" is not null and "orders"."from_tier" is not null and "orders"."to_tier" is not null
            and "orders"."credit_pack_id" is null and "orders"."credits" is null and "orders"."description" is null)
       or ("orders"."kind" = 'credit_pack' and "orders"."credit_pack_id" is not null and "orders"."credits" > 0
            and "orders"."license_key_id" is null and "orders"."path" is null and "orders"."description" is null)
       or ("orders"."kind" = 'legacy' and "orders"."description" is not null and "orders"."license_key_id" is null and "orders"."path" is null
            and "orders"."credit_pack_id" is null and "orders"."credits" is null));--> statement-breakpoint

-- 4. The legacy orders, copied in date order (the values `db/legacy-orders.ts` writes), then their table dropped.
INSERT INTO "orders" ("kind", "user_id", "description", "price_id", "currency", "base_amount_cents", "vat_amount_cents",
  "total_amount_cents", "vat_rate_bp", "reverse_charge", "billing", "provider", "status", "created_at", "updated_at",
  "payment_completed_at")
SELECT 'legacy', "user_id", "description", 'legacy', 'usd', 0, 0, 0, 0, false,
  '{"name":"","email":"","address":{"line1":"","line2":null,"city":"","state":null,"postal_code":"","country":""},"is_business":false,"company_name":null}'::jsonb,
  'legacy', 'completed', "created_at", "created_at", "created_at"
FROM "legacy_orders" ORDER BY "created_at", "id";--> statement-breakpoint
DROP TABLE "legacy_orders";
