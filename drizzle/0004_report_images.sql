ALTER TABLE `run_steps` ADD `thumb_hash` text;--> statement-breakpoint
ALTER TABLE `run_steps` ADD `page_hash` text;--> statement-breakpoint
ALTER TABLE `run_steps` ADD `expected_hash` text;--> statement-breakpoint
ALTER TABLE `run_steps` ADD `actual_hash` text;--> statement-breakpoint
ALTER TABLE `run_steps` ADD `diff_hash` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `screenshot_hash` text;