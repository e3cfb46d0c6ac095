ALTER TABLE `conversations` ADD `title_source` text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `pinned` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `message_search` ADD `kind` text DEFAULT 'answer' NOT NULL;--> statement-breakpoint
-- A title older than this migration may be a rename: treated as the user's, so nothing replaces it.
UPDATE `conversations` SET `title_source` = 'user' WHERE `title` <> 'New conversation';--> statement-breakpoint
-- Indexed agent text cannot be told apart any more (answer or step); the user's words can.
UPDATE `message_search` SET `kind` = 'user' WHERE `role` = 'user';
