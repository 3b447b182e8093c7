CREATE TABLE `collections` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`method` text,
	`check_number` text,
	`card_reference` text,
	`taken_by` text NOT NULL,
	`desk` text NOT NULL,
	`source` text NOT NULL,
	`appointment_id` text,
	`patient_id` text,
	`visit_date` text NOT NULL,
	`date` text NOT NULL,
	`estimate` text,
	`voids_id` text,
	`reason` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`appointment_id`) REFERENCES `appointments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `collections_voids_id_unique` ON `collections` (`voids_id`);--> statement-breakpoint
CREATE INDEX `collections_date` ON `collections` (`date`);--> statement-breakpoint
CREATE INDEX `collections_visit` ON `collections` (`visit_date`);--> statement-breakpoint
CREATE TRIGGER `collections_no_update` BEFORE UPDATE ON `collections` BEGIN SELECT RAISE(ABORT, 'collections is append-only: a void is a new entry'); END;
--> statement-breakpoint
CREATE TRIGGER `collections_no_delete` BEFORE DELETE ON `collections` BEGIN SELECT RAISE(ABORT, 'collections is append-only: a void is a new entry'); END;
