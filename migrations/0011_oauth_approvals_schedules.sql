CREATE TABLE `schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`name` text NOT NULL,
	`text` text NOT NULL,
	`kind` text NOT NULL,
	`at` text,
	`cron` text,
	`time_zone` text NOT NULL,
	`paused` integer DEFAULT false NOT NULL,
	`next_run_at` text,
	`last_run_at` text,
	`last_status` text,
	`last_error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `schedules_user` ON `schedules` (`user_id`);--> statement-breakpoint
CREATE INDEX `schedules_conversation_next` ON `schedules` (`conversation_id`,`next_run_at`);--> statement-breakpoint
CREATE TABLE `tool_approvals` (
	`user_id` text NOT NULL,
	`tool` text NOT NULL,
	`mode` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`user_id`, `tool`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `user_time_zones` (
	`user_id` text PRIMARY KEY NOT NULL,
	`time_zone` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `mcp_servers` ADD `oauth_client_id` text;--> statement-breakpoint
ALTER TABLE `mcp_servers` ADD `sealed_oauth_client` text;--> statement-breakpoint
ALTER TABLE `mcp_servers` ADD `sealed_oauth_tokens` text;--> statement-breakpoint
ALTER TABLE `mcp_servers` ADD `sealed_oauth_pending` text;--> statement-breakpoint
ALTER TABLE `mcp_servers` ADD `oauth_status` text;--> statement-breakpoint
ALTER TABLE `mcp_servers` ADD `oauth_expires_at` text;--> statement-breakpoint
ALTER TABLE `mcp_servers` ADD `oauth_scopes` text;--> statement-breakpoint
ALTER TABLE `mcp_servers` ADD `oauth_refresh_lease` text;