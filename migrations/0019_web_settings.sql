CREATE TABLE `web_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`fetch` integer DEFAULT true NOT NULL,
	`search` integer DEFAULT true NOT NULL,
	`provider` text,
	`url` text,
	`sealed_key` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
