CREATE TABLE `good_faith_estimates` (
	`id` text PRIMARY KEY NOT NULL,
	`appointment_id` text NOT NULL,
	`patient_id` text,
	`scheduled_on` text NOT NULL,
	`requested_on` text,
	`created_at` text NOT NULL,
	`issued_at` text,
	`document` text,
	FOREIGN KEY (`appointment_id`) REFERENCES `appointments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `good_faith_estimates_appointment_id_unique` ON `good_faith_estimates` (`appointment_id`);