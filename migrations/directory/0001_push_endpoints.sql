CREATE TABLE `directory_push_endpoints` (
	`endpoint` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`shard` integer NOT NULL,
	`subscription_id` text NOT NULL
);
