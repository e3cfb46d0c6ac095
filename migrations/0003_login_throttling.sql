CREATE TABLE `login_devices` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `login_devices_expires` ON `login_devices` (`expires_at`);--> statement-breakpoint
CREATE INDEX `login_failures_window` ON `login_failures` (`window_start`);