CREATE TABLE "proxy_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"namespace" text NOT NULL,
	"shape" text NOT NULL,
	"depth" integer NOT NULL,
	"node_id" text NOT NULL,
	"exemplar" text NOT NULL,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"refuted" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proxy_nodes" ADD COLUMN "depth" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "proxy_templates_node" ON "proxy_templates" USING btree ("namespace","node_id");--> statement-breakpoint
CREATE INDEX "proxy_templates_lookup" ON "proxy_templates" USING btree ("namespace","shape","depth");--> statement-breakpoint
CREATE INDEX "proxy_nodes_depth" ON "proxy_nodes" USING btree ("namespace","shape","depth");