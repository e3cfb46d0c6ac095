CREATE TABLE `providers` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`base_url` text NOT NULL,
	`style` text DEFAULT 'chat' NOT NULL,
	`sealed_key` text,
	`models` text DEFAULT '[]' NOT NULL,
	`checked_at` text,
	`last_error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `providers_user` ON `providers` (`user_id`);--> statement-breakpoint
ALTER TABLE `agent_settings` ADD `default_model` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `model` text;