CREATE TABLE `live_conversations` (
	`user_id` text NOT NULL,
	`conversation_id` text NOT NULL,
	`epoch` text NOT NULL,
	PRIMARY KEY(`user_id`, `conversation_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
