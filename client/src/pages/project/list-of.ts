// A list the user types as "#a, #b" (a project's entries, folders, tools): the items, without the mark
// (# or @) or a folder's trailing slash, which are the user's way of writing them.
export const listOf = (text: string, mark = "") =>
  text
    .split(",")
    .map((part) => part.trim().replace(mark, "").replace(/\/+$/, "").trim())
    .filter(Boolean);
