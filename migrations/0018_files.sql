CREATE TABLE `files` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`conversation_id` text,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`kind` text NOT NULL,
	`size` integer NOT NULL,
	`pages` integer,
	`lines` integer,
	`width` integer,
	`height` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `files_user` ON `files` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `files_conversation` ON `files` (`conversation_id`);--> statement-breakpoint
ALTER TABLE `shares` ADD `include_files` integer DEFAULT false NOT NULL;