CREATE TABLE `appointments` (
	`id` text PRIMARY KEY NOT NULL,
	`dedupe_key` text NOT NULL,
	`date` text NOT NULL,
	`time` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`date_of_birth` text NOT NULL,
	`member_id` text,
	`phone` text,
	`provider_id` text,
	`visit_type` text,
	`service_type` text,
	`location` text,
	`external_id` text,
	`patient_id` text,
	`patient_match` text NOT NULL,
	`candidate_patient_ids` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `appointments_dedupe_key_unique` ON `appointments` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `appointments_date` ON `appointments` (`date`,`time`);--> statement-breakpoint
CREATE INDEX `appointments_patient` ON `appointments` (`patient_id`);--> statement-breakpoint
CREATE TABLE `batch_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`batch_id` text NOT NULL,
	`appointment_id` text NOT NULL,
	`state` text NOT NULL,
	`skip_reason` text,
	`insurance_card_id` text,
	`check_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`batch_id`) REFERENCES `eligibility_batches`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`appointment_id`) REFERENCES `appointments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `batch_jobs_batch_state` ON `batch_jobs` (`batch_id`,`state`);--> statement-breakpoint
CREATE INDEX `batch_jobs_appointment` ON `batch_jobs` (`appointment_id`);--> statement-breakpoint
CREATE TABLE `eligibility_batches` (
	`id` text PRIMARY KEY NOT NULL,
	`date` text NOT NULL,
	`start_at` text NOT NULL,
	`state` text NOT NULL,
	`created_at` text NOT NULL,
	`finished_at` text
);
