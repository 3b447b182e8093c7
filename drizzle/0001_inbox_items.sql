CREATE TABLE `inbox_items` (
	`id` text PRIMARY KEY NOT NULL,
	`front_photo_object_key` text NOT NULL,
	`back_photo_object_key` text,
	`patient_id` text,
	`patient_first_name` text,
	`patient_last_name` text,
	`patient_date_of_birth` text,
	`extraction_status` text NOT NULL,
	`extraction_fields` text,
	`extraction_failure_reason` text,
	`state` text NOT NULL,
	`insurance_card_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`front_photo_object_key`) REFERENCES `photos`(`object_key`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`back_photo_object_key`) REFERENCES `photos`(`object_key`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `inbox_items_state` ON `inbox_items` (`state`);