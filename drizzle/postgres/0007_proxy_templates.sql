CREATE TABLE "proxy_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"namespace" text NOT NULL,
	"shape" text NOT NULL,
	"depth" integer NOT NULL,
	"path_hash" text NOT NULL,
	"exemplar" text NOT NULL,
	"reply" text NOT NULL,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"refuted" integer DEFAULT 0 NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"tokens_saved" bigint DEFAULT 0 NOT NULL,
	"last_hit_at" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proxy_nodes" ADD COLUMN "depth" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "proxy_templates_path" ON "proxy_templates" USING btree ("namespace","shape","path_hash");--> statement-breakpoint
CREATE INDEX "proxy_templates_lookup" ON "proxy_templates" USING btree ("namespace","shape","depth");--> statement-breakpoint
CREATE INDEX "proxy_nodes_depth" ON "proxy_nodes" USING btree ("namespace","shape","depth");