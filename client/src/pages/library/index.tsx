// /library: the user's knowledge entries (`#slug` in a message attaches one) and workflows (`/slug` runs
// one). One editor is open at a time (editor.tsx); slug, title and body are checked as they are typed
// with the same zod rules the server applies, and the server's own field errors are shown where it names
// them (use-entry-editor.ts). Each kind is a section (section.tsx).
import { useState } from "preact/hooks";
import type { EntryInput, LibraryEntrySummary } from "../../../../protocol/library";
import { PageFrame } from "../../components/page-frame";
import { KINDS, type LibraryKind, useLibrary } from "../../lib/use-library";
import { Section } from "./section";
import { type Editing, SECTIONS, type Status } from "./sections";

export function Library() {
  const { lists, save, remove } = useLibrary();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [status, setStatus] = useState<Status | null>(null);

  const onSave = async (kind: LibraryKind, slug: string, input: EntryInput) => {
    const result = await save(kind, slug, input);
    if (result.ok) {
      setEditing(null);
      setStatus({ kind, text: `✓ Saved ${SECTIONS[kind].sigil}${slug}` });
    }
    return result;
  };

  const onDelete = async (kind: LibraryKind, entry: LibraryEntrySummary) => {
    const label = `${SECTIONS[kind].sigil}${entry.slug}`;
    const result = await remove(kind, entry.slug);
    if (editing?.kind === kind && editing.slug === entry.slug) setEditing(null);
    if (result.ok || result.error.status === 404)
      setStatus({ kind, text: `Deleted ${label}`, undo: { slug: entry.slug, input: entry } });
    else setStatus({ kind, text: `Could not delete ${label}: ${result.error.message}`, error: true });
  };

  const onUndo = async (kind: LibraryKind, undo: NonNullable<Status["undo"]>) => {
    const result = await save(kind, undo.slug, { title: undo.input.title, body: undo.input.body });
    const label = `${SECTIONS[kind].sigil}${undo.slug}`;
    setStatus(
      result.ok
        ? { kind, text: `✓ Restored ${label}` }
        : { kind, text: `Could not restore ${label}: ${result.error.message}`, error: true },
    );
  };

  return (
    <PageFrame title="Library" testid="library">
      {KINDS.map((kind) => (
        <Section
          key={kind}
          kind={kind}
          list={lists[kind]}
          editing={editing?.kind === kind ? editing.slug : undefined}
          status={status?.kind === kind ? status : null}
          onNew={() => {
            setEditing({ kind, slug: null });
            setStatus(null);
          }}
          onEdit={(slug) => {
            setEditing({ kind, slug });
            setStatus(null);
          }}
          onCancel={() => setEditing(null)}
          onSave={(slug, input) => onSave(kind, slug, input)}
          onDelete={(entry) => void onDelete(kind, entry)}
          onUndo={(undo) => void onUndo(kind, undo)}
        />
      ))}
    </PageFrame>
  );
}
