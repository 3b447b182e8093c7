-- How many outbox entries are in each state, kept by triggers in the writer's own transaction
-- (whichever process or desk writes the file): the sync status reads these rows instead of
-- counting the whole outbox (docs/decisions.md, Local data and the outbox).
CREATE TABLE `outbox_state_counts` (`state` text PRIMARY KEY NOT NULL, `n` integer NOT NULL) WITHOUT ROWID;--> statement-breakpoint
INSERT INTO `outbox_state_counts` (`state`, `n`) SELECT `state`, count(*) FROM `outbox` GROUP BY `state`;--> statement-breakpoint
-- Every state has its row from the start: the table's row count never changes (backups and tests compare row counts per table).
INSERT OR IGNORE INTO `outbox_state_counts` (`state`, `n`) VALUES ('queued', 0), ('sending', 0), ('synced', 0), ('failed', 0), ('blocked', 0), ('needs_review', 0);--> statement-breakpoint
CREATE TRIGGER `outbox_state_counts_insert` AFTER INSERT ON `outbox` BEGIN
  INSERT INTO `outbox_state_counts` (`state`, `n`) VALUES (NEW.`state`, 1) ON CONFLICT (`state`) DO UPDATE SET `n` = `n` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `outbox_state_counts_delete` AFTER DELETE ON `outbox` BEGIN
  UPDATE `outbox_state_counts` SET `n` = `n` - 1 WHERE `state` = OLD.`state`;
END;--> statement-breakpoint
CREATE TRIGGER `outbox_state_counts_update` AFTER UPDATE OF `state` ON `outbox` WHEN OLD.`state` IS NOT NEW.`state` BEGIN
  UPDATE `outbox_state_counts` SET `n` = `n` - 1 WHERE `state` = OLD.`state`;
  INSERT INTO `outbox_state_counts` (`state`, `n`) VALUES (NEW.`state`, 1) ON CONFLICT (`state`) DO UPDATE SET `n` = `n` + 1;
END;
