CREATE TABLE `proxy_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`namespace` text NOT NULL,
	`shape` text NOT NULL,
	`depth` integer NOT NULL,
	`path_hash` text NOT NULL,
	`exemplar` text NOT NULL,
	`reply` text NOT NULL,
	`confirmations` integer DEFAULT 0 NOT NULL,
	`refuted` integer DEFAULT 0 NOT NULL,
	`hits` integer DEFAULT 0 NOT NULL,
	`tokens_saved` integer DEFAULT 0 NOT NULL,
	`last_hit_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `proxy_templates_path` ON `proxy_templates` (`namespace`,`shape`,`path_hash`);--> statement-breakpoint
CREATE INDEX `proxy_templates_lookup` ON `proxy_templates` (`namespace`,`shape`,`depth`);--> statement-breakpoint
ALTER TABLE `proxy_nodes` ADD `depth` integer;--> statement-breakpoint
CREATE INDEX `proxy_nodes_depth` ON `proxy_nodes` (`namespace`,`shape`,`depth`);