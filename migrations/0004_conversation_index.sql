CREATE TABLE `message_search` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`conversation_id` text NOT NULL,
	`user_id` text NOT NULL,
	`seq` integer NOT NULL,
	`role` text NOT NULL,
	`text` text NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `message_search_conversation_seq` ON `message_search` (`conversation_id`,`seq`);--> statement-breakpoint
CREATE INDEX `message_search_user` ON `message_search` (`user_id`);--> statement-breakpoint
ALTER TABLE `conversations` ADD `preview` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Full text over the search index, kept in step by triggers (a cascade delete of a conversation fires them too).
CREATE VIRTUAL TABLE `message_search_fts` USING fts5(`text`, content='message_search', content_rowid='id', tokenize='porter unicode61');
--> statement-breakpoint
CREATE TRIGGER `message_search_ai` AFTER INSERT ON `message_search` BEGIN
  INSERT INTO `message_search_fts`(rowid, `text`) VALUES (new.id, new.text);
END;
--> statement-breakpoint
CREATE TRIGGER `message_search_ad` AFTER DELETE ON `message_search` BEGIN
  INSERT INTO `message_search_fts`(`message_search_fts`, rowid, `text`) VALUES ('delete', old.id, old.text);
END;
--> statement-breakpoint
CREATE TRIGGER `message_search_au` AFTER UPDATE ON `message_search` BEGIN
  INSERT INTO `message_search_fts`(`message_search_fts`, rowid, `text`) VALUES ('delete', old.id, old.text);
  INSERT INTO `message_search_fts`(rowid, `text`) VALUES (new.id, new.text);
END;
