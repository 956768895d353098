ALTER TABLE `runs` ADD `model_calls` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `runs` ADD `input_tokens` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `runs` ADD `output_tokens` integer DEFAULT 0 NOT NULL;