ALTER TABLE `runs` ADD `host` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `job_id` text;--> statement-breakpoint
CREATE INDEX `runs_job_idx` ON `runs` (`job_id`);--> statement-breakpoint
ALTER TABLE `schedule_slots` ADD `host` text;