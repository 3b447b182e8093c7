CREATE TABLE `remote_ids` (
	`upstream` text NOT NULL,
	`record_id` text NOT NULL,
	`remote_id` text NOT NULL,
	PRIMARY KEY(`upstream`, `record_id`)
);
--> statement-breakpoint
CREATE INDEX `remote_ids_remote` ON `remote_ids` (`upstream`,`remote_id`);