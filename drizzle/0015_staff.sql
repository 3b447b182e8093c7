CREATE TABLE `staff` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`pin` text NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`retry_at` text,
	`created_at` text NOT NULL,
	`disabled_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `staff_name` ON `staff` (lower("name"));