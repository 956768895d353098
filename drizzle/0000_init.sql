CREATE TABLE `blobs` (
	`hash` text PRIMARY KEY NOT NULL,
	`bytes` blob NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `nodes` (
	`id` text PRIMARY KEY NOT NULL,
	`task_id` text NOT NULL,
	`parent_id` text,
	`resume_at_id` text,
	`action` text NOT NULL,
	`intent` text,
	`url` text NOT NULL,
	`fingerprint` text,
	`box` text,
	`crop_hash` text,
	`crop_rect` text,
	`masks` text,
	`state` text,
	`ends_run` integer DEFAULT false NOT NULL,
	`hits` integer DEFAULT 0 NOT NULL,
	`misses` integer DEFAULT 0 NOT NULL,
	`last_used_at` integer,
	`last_success_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`crop_hash`) REFERENCES `blobs`(`hash`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `nodes_task_parent_idx` ON `nodes` (`task_id`,`parent_id`);--> statement-breakpoint
CREATE TABLE `run_steps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` text NOT NULL,
	`idx` integer NOT NULL,
	`node_id` text,
	`kind` text NOT NULL,
	`action` text NOT NULL,
	`intent` text,
	`outcome` text NOT NULL,
	`reason` text,
	`duration_ms` integer NOT NULL,
	`check_ms` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `run_steps_run_idx` ON `run_steps` (`run_id`,`idx`);--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`task_id` text,
	`task` text NOT NULL,
	`mode` text NOT NULL,
	`status` text NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`duration_ms` integer,
	`agent_calls` integer DEFAULT 0 NOT NULL,
	`cached_steps` integer DEFAULT 0 NOT NULL,
	`relocated_steps` integer DEFAULT 0 NOT NULL,
	`agent_steps` integer DEFAULT 0 NOT NULL,
	`error` text,
	`pid` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `runs_status_idx` ON `runs` (`status`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`task_template` text NOT NULL,
	`tags` text NOT NULL,
	`start_url` text NOT NULL,
	`param_names` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
