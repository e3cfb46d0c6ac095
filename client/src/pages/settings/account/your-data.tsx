// Settings → Account → Your data (docs/protocol.md "Export and import"): download everything in one zip,
// with how far it has got while it is made; bring an Oracle export back, here or in another account;
// bring a ChatGPT export over. Each import says, once done, what came in, under which new names, and
// what was left out.
import { useState } from "preact/hooks";
import type { ImportSummary } from "../../../../../protocol";
import { pageStyle } from "../../../components/page-frame";
import {
  downloadAccount,
  type ExportProgress,
  type ImportKind,
  type ImportProgress,
  importAccount,
} from "../../../lib/account-data";
import {
  exportProgressWords,
  importProgressWords,
  importSummaryLines,
  sizeWords,
} from "../../../lib/account-data-words";
import { announceConversations } from "../../../lib/conversation-groups";
import style from "./style.module.css";
import own from "./your-data.module.css";

export function YourData() {
  return (
    <section class={style.section} aria-labelledby="your-data-title" data-testid="your-data">
      <h2 id="your-data-title" class={style.heading}>
        Your data
      </h2>
      <p class={pageStyle.muted}>
        One zip with everything: each conversation with every version of its messages (as JSON, and as Markdown to
        read), your notes in their folders, tasks, library, schedules and settings. No password, key or token is in it.
      </p>
      <DownloadData />
      <ImportData kind="oracle" />
      <ImportData kind="chatgpt" />
    </section>
  );
}

type Run<P, R> =
  | { state: "idle" }
  | { state: "running"; progress: P | null }
  | { state: "done"; result: R }
  /** `refused`: the server refused the file before writing anything. */
  | { state: "failed"; message: string; refused?: boolean };

function DownloadData() {
  const [run, setRun] = useState<Run<ExportProgress, { fileName: string; bytes: number }>>({ state: "idle" });
  const start = async () => {
    setRun({ state: "running", progress: null });
    const result = await downloadAccount((progress) => setRun({ state: "running", progress }));
    setRun(result.ok ? { state: "done", result: result.data } : { state: "failed", message: result.error.message });
  };
  const progress = run.state === "running" ? run.progress : null;
  return (
    <div class={own.block} data-testid="export-data">
      <button
        type="button"
        class={pageStyle.primary}
        disabled={run.state === "running"}
        onClick={() => void start()}
        data-testid="export-start"
      >
        {run.state === "running" ? "Exporting…" : "Download your data"}
      </button>
      {run.state === "running" && (
        <div class={own.progress} role="status" data-testid="export-progress">
          {progress?.total ? (
            <progress max={progress.total} value={Math.min(progress.conversations, progress.total)} />
          ) : (
            <progress />
          )}
          <span>{progress ? exportProgressWords(progress) : "Exporting…"}</span>
        </div>
      )}
      {run.state === "done" && (
        <p class={pageStyle.status} role="status" data-testid="export-done">
          Saved {run.result.fileName} ({sizeWords(run.result.bytes)}).
        </p>
      )}
      {run.state === "failed" && (
        <p class={pageStyle.statusError} role="alert" data-testid="export-error">
          The export failed: {run.message}
        </p>
      )}
    </div>
  );
}

const IMPORTS: Record<ImportKind, { title: string; hint: string; accept: string }> = {
  oracle: {
    title: "Import an Oracle export",
    hint: "A zip downloaded above, from this account or another. It comes in beside what you have: every conversation as a new one, a note whose path is taken under a new path, schedules paused.",
    accept: ".zip,application/zip",
  },
  chatgpt: {
    title: "Import from ChatGPT",
    hint: "In ChatGPT, Settings → Data controls → Export data mails you a zip: choose it, or the conversations.json inside it. Each conversation comes in with every version of its answers.",
    accept: ".zip,.json,application/zip,application/json",
  },
};

function ImportData({ kind }: { kind: ImportKind }) {
  const [file, setFile] = useState<File | null>(null);
  const [run, setRun] = useState<Run<ImportProgress, ImportSummary>>({ state: "idle" });
  const { title, hint, accept } = IMPORTS[kind];
  const start = async () => {
    if (!file) return;
    setRun({ state: "running", progress: null });
    const result = await importAccount(kind, file, (progress) => setRun({ state: "running", progress }));
    if (!result.ok)
      return setRun({ state: "failed", message: result.error.message, refused: result.error.status >= 400 });
    setRun({ state: "done", result: result.data });
    announceConversations();
  };
  const id = `import-${kind}`;
  const progress = run.state === "running" ? run.progress : null;
  return (
    <div class={own.block} data-testid={id}>
      <h3 class={own.title}>{title}</h3>
      <p id={`${id}-hint`} class={own.hint}>
        {hint}
      </p>
      <div class={own.row}>
        <input
          type="file"
          accept={accept}
          aria-label={title}
          aria-describedby={`${id}-hint`}
          disabled={run.state === "running"}
          onChange={(event) => {
            setFile(event.currentTarget.files?.[0] ?? null);
            setRun({ state: "idle" });
          }}
          data-testid={`${id}-file`}
        />
        <button
          type="button"
          disabled={!file || run.state === "running"}
          onClick={() => void start()}
          data-testid={`${id}-start`}
        >
          {run.state === "running" ? "Importing…" : "Import"}
        </button>
      </div>
      {run.state === "running" && (
        <div class={own.progress} role="status" data-testid={`${id}-progress`}>
          {progress?.phase === "importing" && progress.total ? (
            <progress max={progress.total} value={progress.done} />
          ) : (
            <progress />
          )}
          <span>{progress ? importProgressWords(progress) : "Reading the file…"}</span>
        </div>
      )}
      {run.state === "done" && (
        <div class={pageStyle.status} role="status" data-testid={`${id}-done`}>
          <ul class={own.lines}>
            {importSummaryLines(run.result, kind).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      {run.state === "failed" && (
        <p class={pageStyle.statusError} role="alert" data-testid={`${id}-error`}>
          {run.refused ? `Nothing was imported: ${run.message}` : `The import stopped: ${run.message}`}
        </p>
      )}
    </div>
  );
}
