// Limits of the notes (the vault) as the API states them (docs/protocol.md "Notes").

/** A note's path, in characters. */
export const MAX_NOTE_PATH = 200;
/** A note's content, in characters. */
export const MAX_NOTE_CONTENT = 100_000;
/** `GET /api/notes` answers at most this many notes (in path order). */
export const MAX_LISTED_NOTES = 200;
/** The characters a note's path (or a folder's) may hold. */
export const NOTE_PATH_CHARS = /^[A-Za-z0-9 _./-]*$/;
