CREATE INDEX `checks_pending` ON `electronic_eligibility_checks` (`status`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `discoveries_pending` ON `electronic_eligibility_discoveries` (`status`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `extractions_pending` ON `extractions` (`status`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `outbox_synced_at` ON `outbox` (`updated_at`) WHERE state = 'synced';