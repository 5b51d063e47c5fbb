-- Hand-written (modules/credits): the credit ledger is append-only, like the audit log (0005). A correction is a
-- new row, never an edit. keyport_refuse_change() is defined in 0005.
CREATE TRIGGER credit_ledger_append_only
  BEFORE UPDATE OR DELETE ON "credit_ledger"
  FOR EACH ROW EXECUTE FUNCTION keyport_refuse_change();
