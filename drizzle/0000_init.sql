CREATE TABLE `electronic_eligibility_checks` (
	`id` text PRIMARY KEY NOT NULL,
	`insurance_card_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`clearinghouse_entity_id` text NOT NULL,
	`electronic_eligibility_discovery_id` text,
	`provider_npi` text NOT NULL,
	`patient_first_name` text NOT NULL,
	`patient_last_name` text NOT NULL,
	`patient_date_of_birth` text NOT NULL,
	`insurance_card_member_id` text,
	`service_type` text NOT NULL,
	`status` text NOT NULL,
	`source` text NOT NULL,
	`failure_reason` text,
	`clearinghouse_entity_errors` text,
	`benefits` text,
	`created_at` text NOT NULL,
	`finished_at` text,
	`remote_id` text,
	FOREIGN KEY (`insurance_card_id`) REFERENCES `insurance_cards`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`electronic_eligibility_discovery_id`) REFERENCES `electronic_eligibility_discoveries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `checks_card` ON `electronic_eligibility_checks` (`insurance_card_id`);--> statement-breakpoint
CREATE INDEX `checks_discovery` ON `electronic_eligibility_checks` (`electronic_eligibility_discovery_id`);--> statement-breakpoint
CREATE TABLE `clearinghouse_entities` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`payer_id` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `electronic_eligibility_discoveries` (
	`id` text PRIMARY KEY NOT NULL,
	`insurance_card_id` text NOT NULL,
	`patient_first_name` text NOT NULL,
	`patient_last_name` text NOT NULL,
	`patient_date_of_birth` text NOT NULL,
	`insurance_card_member_id` text,
	`source` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`finished_at` text,
	`remote_id` text,
	FOREIGN KEY (`insurance_card_id`) REFERENCES `insurance_cards`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `discoveries_card` ON `electronic_eligibility_discoveries` (`insurance_card_id`);--> statement-breakpoint
CREATE TABLE `extractions` (
	`id` text PRIMARY KEY NOT NULL,
	`insurance_card_id` text NOT NULL,
	`status` text NOT NULL,
	`engine` text NOT NULL,
	`fields` text,
	`text` text,
	`failure_reason` text,
	`created_at` text NOT NULL,
	`finished_at` text,
	`remote_id` text,
	FOREIGN KEY (`insurance_card_id`) REFERENCES `insurance_cards`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `extractions_card` ON `extractions` (`insurance_card_id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer,
	`response_body` text,
	`created_at` text NOT NULL,
	`completed_at` text,
	PRIMARY KEY(`scope`, `key`)
);
--> statement-breakpoint
CREATE TABLE `insurance_cards` (
	`id` text PRIMARY KEY NOT NULL,
	`patient_id` text NOT NULL,
	`reference_id` text,
	`source` text NOT NULL,
	`network_status` text,
	`submission_id` text,
	`front_photo_object_key` text,
	`back_photo_object_key` text,
	`member_name` text,
	`member_id` text,
	`group_number` text,
	`insurance_carrier_ids` text NOT NULL,
	`plan_name` text,
	`rx_bin` text,
	`rx_group` text,
	`rx_pcn` text,
	`dependent_names` text,
	`plan_status` text,
	`plan_status_fetched_at` text,
	`created_at` text NOT NULL,
	`remote_id` text,
	FOREIGN KEY (`patient_id`) REFERENCES `patients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`front_photo_object_key`) REFERENCES `photos`(`object_key`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`back_photo_object_key`) REFERENCES `photos`(`object_key`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `insurance_cards_patient_id` ON `insurance_cards` (`patient_id`);--> statement-breakpoint
CREATE INDEX `insurance_cards_member_id` ON `insurance_cards` (`member_id`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`collection` text NOT NULL,
	`record_id` text NOT NULL,
	`payload` text NOT NULL,
	`depends_on` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`first_attempt_at` text,
	`last_error` text,
	`remote_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `outbox_state_next` ON `outbox` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outbox_record` ON `outbox` (`record_id`);--> statement-breakpoint
CREATE TABLE `patients` (
	`id` text PRIMARY KEY NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`date_of_birth` text NOT NULL,
	`created_at` text NOT NULL,
	`remote_id` text
);
--> statement-breakpoint
CREATE TABLE `photos` (
	`object_key` text PRIMARY KEY NOT NULL,
	`content_type` text NOT NULL,
	`byte_size` integer NOT NULL,
	`created_at` text NOT NULL,
	`remote_id` text
);
--> statement-breakpoint
CREATE TABLE `providers` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`npi` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
