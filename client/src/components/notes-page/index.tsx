// The user's notes (/notes, /notes/<path>): browse, read, edit, create and delete over the REST routes.
export function NotesPage({ path }: { path?: string }) {
  return <main data-testid="notes-page" data-path={path} />;
}
