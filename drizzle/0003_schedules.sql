CREATE TABLE `schedule_slots` (
	`id` text PRIMARY KEY NOT NULL,
	`schedule_id` text NOT NULL,
	`slot_at` integer NOT NULL,
	`status` text NOT NULL,
	`trigger` text DEFAULT 'cron' NOT NULL,
	`reason` text,
	`started_at` integer,
	`ended_at` integer,
	`pid` integer,
	`summary` text,
	FOREIGN KEY (`schedule_id`) REFERENCES `schedules`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `schedule_slots_schedule_slot_idx` ON `schedule_slots` (`schedule_id`,`slot_at`);--> statement-breakpoint
CREATE INDEX `schedule_slots_status_idx` ON `schedule_slots` (`status`);--> statement-breakpoint
CREATE TABLE `schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`cron` text NOT NULL,
	`timezone` text NOT NULL,
	`job` text NOT NULL,
	`on_failure` text,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `schedules_name_unique` ON `schedules` (`name`);