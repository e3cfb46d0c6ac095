// Where a message's files are fetched from, given by the page that shows the messages: in the app, the
// owner's address (`/api/files/<id>/content`); on a shared page, the link's own
// (`/api/shared/<share>/files/<id>`) for the files the link shows when its owner included them, and
// nothing otherwise (their names only: no request for them is ever made there).
import { createContext } from "preact";
import { useContext } from "preact/hooks";

/** Where a file's bytes are: the owner's address, or with `share` the link's own. */
export function fileUrl(id: string, { share, download = false }: { share?: string; download?: boolean } = {}): string {
  const base = share
    ? `/api/shared/${encodeURIComponent(share)}/files/${encodeURIComponent(id)}`
    : `/api/files/${encodeURIComponent(id)}/content`;
  return download ? `${base}?download=1` : base;
}

export type FileLinks = {
  /** The file's address (to download with `download`), or null when it may only be named. */
  url: (id: string, download?: boolean) => string | null;
};

const OWNER: FileLinks = { url: (id, download) => fileUrl(id, { download }) };

export const FileLinksContext = createContext<FileLinks>(OWNER);

export const useFileLinks = () => useContext(FileLinksContext);

/** A shared page's links: the share's own address for the files it shows, when files are included. */
export function sharedFileLinks(shareId: string, includeFiles: boolean, shown: ReadonlySet<string>): FileLinks {
  return {
    url: (id, download) => (includeFiles && shown.has(id) ? fileUrl(id, { share: shareId, download }) : null),
  };
}
