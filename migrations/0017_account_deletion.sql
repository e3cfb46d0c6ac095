-- Deleting an account leaves no trace of its words in the full-text indexes (docs/protocol.md "Deleting
-- an account"). With FTS5's secure-delete, a deleted row's terms are removed from the index at once,
-- instead of staying in the index's segments beside a delete marker until a merge rewrites them.
INSERT INTO `notes_fts`(`notes_fts`, `rank`) VALUES('secure-delete', 1);
--> statement-breakpoint
INSERT INTO `message_search_fts`(`message_search_fts`, `rank`) VALUES('secure-delete', 1);
--> statement-breakpoint
-- The terms of rows deleted before now: merged away once.
INSERT INTO `notes_fts`(`notes_fts`) VALUES('optimize');
--> statement-breakpoint
INSERT INTO `message_search_fts`(`message_search_fts`) VALUES('optimize');
