-- Full-text index over the vault (vault_search). An external-content FTS5 table kept in step by triggers.
CREATE VIRTUAL TABLE `notes_fts` USING fts5(`path`, `content`, content='notes', content_rowid='id', tokenize='porter unicode61');
--> statement-breakpoint
CREATE TRIGGER `notes_ai` AFTER INSERT ON `notes` BEGIN
  INSERT INTO `notes_fts`(rowid, `path`, `content`) VALUES (new.id, new.path, new.content);
END;
--> statement-breakpoint
CREATE TRIGGER `notes_ad` AFTER DELETE ON `notes` BEGIN
  INSERT INTO `notes_fts`(`notes_fts`, rowid, `path`, `content`) VALUES ('delete', old.id, old.path, old.content);
END;
--> statement-breakpoint
CREATE TRIGGER `notes_au` AFTER UPDATE ON `notes` BEGIN
  INSERT INTO `notes_fts`(`notes_fts`, rowid, `path`, `content`) VALUES ('delete', old.id, old.path, old.content);
  INSERT INTO `notes_fts`(rowid, `path`, `content`) VALUES (new.id, new.path, new.content);
END;
