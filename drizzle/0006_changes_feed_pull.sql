CREATE TABLE `changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`collection` text NOT NULL,
	`record_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `changes_record` ON `changes` (`collection`,`record_id`);--> statement-breakpoint
CREATE TABLE `possible_duplicates` (
	`patient_id` text NOT NULL,
	`other_patient_id` text NOT NULL,
	`reason` text NOT NULL,
	`state` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`patient_id`, `other_patient_id`),
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`other_patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `pull_set_aside` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`collection` text NOT NULL,
	`upstream_id` text,
	`reason` text NOT NULL,
	`record` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pull_set_aside_upstream` ON `pull_set_aside` (`collection`,`upstream_id`);--> statement-breakpoint
CREATE TABLE `pull_state` (
	`upstream` text PRIMARY KEY NOT NULL,
	`cursor` text,
	`bootstrapped_at` text,
	`last_pulled_at` text,
	`received` integer DEFAULT 0 NOT NULL,
	`behind` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE INDEX `checks_remote_id` ON `electronic_eligibility_checks` (`remote_id`);--> statement-breakpoint
CREATE INDEX `discoveries_remote_id` ON `electronic_eligibility_discoveries` (`remote_id`);--> statement-breakpoint
CREATE INDEX `extractions_remote_id` ON `extractions` (`remote_id`);--> statement-breakpoint
CREATE INDEX `insurance_cards_remote_id` ON `insurance_cards` (`remote_id`);--> statement-breakpoint
CREATE INDEX `patients_remote_id` ON `patients` (`remote_id`);--> statement-breakpoint
CREATE INDEX `patients_date_of_birth` ON `patients` (`date_of_birth`);