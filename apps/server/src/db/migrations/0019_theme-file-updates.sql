-- Issue 21 (ADR 044): theme-file upgrades are "theme-file updates" in code. The runs table, its sequence, keys,
-- checks, indexes and enum types take the new name; every row (and its id) stays. Queued, running and dead jobs of
-- the run and the clean-up move to the new job kinds (a dead one can still be retried), and the clean-up's schedule
-- row to the new schedule name (it keeps its next run).

ALTER TABLE "theme_upgrade_runs" RENAME TO "theme_update_runs";--> statement-breakpoint
ALTER SEQUENCE "theme_upgrade_runs_id_seq" RENAME TO "theme_update_runs_id_seq";--> statement-breakpoint
ALTER INDEX "theme_upgrade_runs_pkey" RENAME TO "theme_update_runs_pkey";--> statement-breakpoint
ALTER TABLE "theme_update_runs" RENAME CONSTRAINT "theme_upgrade_runs_user_id_users_id_fk" TO "theme_update_runs_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "theme_update_runs" RENAME CONSTRAINT "theme_upgrade_runs_source_key_id_license_keys_id_fk" TO "theme_update_runs_source_key_id_license_keys_id_fk";--> statement-breakpoint
ALTER TABLE "theme_update_runs" RENAME CONSTRAINT "theme_upgrade_runs_target_key_id_license_keys_id_fk" TO "theme_update_runs_target_key_id_license_keys_id_fk";--> statement-breakpoint
ALTER TABLE "theme_update_runs" RENAME CONSTRAINT "theme_upgrade_runs_target_release_id_releases_id_fk" TO "theme_update_runs_target_release_id_releases_id_fk";--> statement-breakpoint
ALTER TABLE "theme_update_runs" RENAME CONSTRAINT "theme_upgrade_runs_succeeded_has_output" TO "theme_update_runs_succeeded_has_output";--> statement-breakpoint
ALTER TABLE "theme_update_runs" RENAME CONSTRAINT "theme_upgrade_runs_moved_only_if_asked" TO "theme_update_runs_moved_only_if_asked";--> statement-breakpoint
ALTER INDEX "theme_upgrade_runs_user_idx" RENAME TO "theme_update_runs_user_idx";--> statement-breakpoint
ALTER INDEX "theme_upgrade_runs_expires_idx" RENAME TO "theme_update_runs_expires_idx";--> statement-breakpoint
ALTER INDEX "theme_upgrade_runs_running_target" RENAME TO "theme_update_runs_running_target";--> statement-breakpoint
ALTER INDEX "theme_upgrade_runs_running_source" RENAME TO "theme_update_runs_running_source";--> statement-breakpoint
ALTER INDEX "theme_upgrade_runs_running_store" RENAME TO "theme_update_runs_running_store";--> statement-breakpoint
-- The constraints PostgreSQL names itself (NOT NULL ones, from PostgreSQL 18 and in PGlite; none on older servers).
DO $$
DECLARE c record;
BEGIN
  FOR c IN SELECT conname FROM pg_constraint
    WHERE conrelid = '"theme_update_runs"'::regclass AND starts_with(conname, 'theme_upgrade_runs_')
  LOOP
    EXECUTE format('ALTER TABLE "theme_update_runs" RENAME CONSTRAINT %I TO %I', c.conname,
      'theme_update_runs_' || substr(c.conname, length('theme_upgrade_runs_') + 1));
  END LOOP;
END $$;--> statement-breakpoint
ALTER TYPE "public"."theme_upgrade_run_status" RENAME TO "theme_update_run_status";--> statement-breakpoint
ALTER TYPE "public"."theme_upgrade_phase" RENAME TO "theme_update_phase";--> statement-breakpoint
UPDATE "jobs" SET "kind" = 'theme-file-updates.run' WHERE "kind" = 'theme-upgrades.run';--> statement-breakpoint
UPDATE "jobs" SET "kind" = 'theme-file-updates.sweep' WHERE "kind" = 'theme-upgrades.sweep';--> statement-breakpoint
UPDATE "job_schedules" SET "name" = 'theme-file-updates-sweep' WHERE "name" = 'theme-upgrades-sweep';
