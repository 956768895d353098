CREATE TABLE `proxy_nodes` (
	`id` text PRIMARY KEY NOT NULL,
	`namespace` text NOT NULL,
	`shape` text NOT NULL,
	`parent_id` text NOT NULL,
	`level_hash` text NOT NULL,
	`level` text NOT NULL,
	`reply` text,
	`hits` integer DEFAULT 0 NOT NULL,
	`tokens_saved` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`last_hit_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `proxy_nodes_place` ON `proxy_nodes` (`namespace`,`shape`,`parent_id`,`level_hash`);--> statement-breakpoint
CREATE INDEX `proxy_nodes_lookup` ON `proxy_nodes` (`namespace`,`shape`,`level_hash`);