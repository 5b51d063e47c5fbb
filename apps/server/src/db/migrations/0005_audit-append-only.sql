-- Hand-written (modules/audit, modules/invoices): the audit log is append-only and an issued invoice or credit note is
-- immutable. Any UPDATE or DELETE of a row is refused by the database itself, whoever asks. (TRUNCATE, an owner's
-- maintenance statement, fires no row trigger; the tests use it to start from empty tables.)
CREATE OR REPLACE FUNCTION keyport_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only
  BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION keyport_refuse_change();
--> statement-breakpoint
CREATE TRIGGER invoices_immutable
  BEFORE UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION keyport_refuse_change();
