ALTER TABLE `audit_log` ADD `hash` text;
--> statement-breakpoint
-- Still append-only; the one update allowed is sealing an entry from before the chain (hash
-- null) once, its content untouched: the checkpoint the host makes at its first start.
DROP TRIGGER `audit_log_no_update`;
--> statement-breakpoint
CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log`
WHEN NOT (OLD.hash IS NULL AND NEW.hash IS NOT NULL AND NEW.seq = OLD.seq AND NEW.at = OLD.at AND NEW.actor = OLD.actor AND NEW.action = OLD.action AND NEW.record_id = OLD.record_id)
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
