CREATE TABLE `roster` (
	`id` text PRIMARY KEY NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`date_of_birth` text NOT NULL,
	`member_id` text NOT NULL,
	`clearinghouse_entity_id` text NOT NULL,
	`group_number` text,
	`plan_name` text,
	FOREIGN KEY (`clearinghouse_entity_id`) REFERENCES `clearinghouse_entities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `roster_person` ON `roster` (`last_name`,`date_of_birth`);