DROP INDEX "license_keys_main_url_idx";--> statement-breakpoint
DROP INDEX "license_keys_myshopify_idx";--> statement-breakpoint
DROP INDEX "license_keys_secondary_url_idx";--> statement-breakpoint
DROP INDEX "license_keys_linked_app_store_idx";--> statement-breakpoint
CREATE INDEX "license_keys_main_url_pattern_idx" ON "license_keys" USING btree ("main_url" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "license_keys_myshopify_pattern_idx" ON "license_keys" USING btree ("myshopify" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "license_keys_secondary_url_pattern_idx" ON "license_keys" USING btree ("secondary_url" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "license_keys_linked_app_store_pattern_idx" ON "license_keys" USING btree ("linked_app_store" text_pattern_ops);