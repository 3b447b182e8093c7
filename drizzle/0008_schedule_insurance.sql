ALTER TABLE `appointments` ADD `payer` text;--> statement-breakpoint
ALTER TABLE `appointments` ADD `clearinghouse_entity_id` text;--> statement-breakpoint
ALTER TABLE `appointments` ADD `payer_candidate_ids` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `appointments` ADD `group_number` text;--> statement-breakpoint
ALTER TABLE `appointments` ADD `relationship` text;