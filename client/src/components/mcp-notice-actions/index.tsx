// What a person can do from an "MCP server unavailable" card (issue 26) instead of reading the same
// card every turn: turn the server off (PATCH /api/mcp-servers/:id {enabled: false}), turn it back on,
// or test it again (POST …/test), each with its outcome in words on the card. The card names the
// server as Settings → Tools does, so the server is found by name in the user's list.
import { useEffect, useState } from "preact/hooks";
import { type McpServer, McpServerListSchema, McpServerSchema, McpTestResultSchema } from "../../../../protocol";
import { requestJson } from "../../lib/api";
import { plural } from "../../lib/plural";
import { Link } from "../link";
import style from "./style.module.css";

const BASE = "/api/mcp-servers";

type Lookup =
  | { status: "loading" }
  | { status: "gone" }
  | { status: "failed" }
  | { status: "found"; server: McpServer };
type Outcome = { tone: "ok" | "bad"; text: string };

/** Text ending in one full stop, however the server's error ended. */
const sentence = (text: string) => `${text.trim().replace(/[.\s]+$/, "")}.`;

function ServerActions({ name, lookup }: { name: string; lookup: Lookup }) {
  const [server, setServer] = useState<McpServer | null>(null);
  const [busy, setBusy] = useState<"off" | "on" | "test" | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const current = server ?? (lookup.status === "found" ? lookup.server : null);

  if (lookup.status === "loading") return null;
  if (!current) {
    return (
      <p class={style.note} data-testid="mcp-notice-gone">
        {lookup.status === "gone"
          ? `${name} is no longer in Settings → Tools.`
          : `Could not look ${name} up in Settings → Tools.`}
      </p>
    );
  }
  const path = `${BASE}/${encodeURIComponent(current.id)}`;

  const setEnabled = async (enabled: boolean) => {
    setBusy(enabled ? "on" : "off");
    setOutcome(null);
    const result = await requestJson(path, McpServerSchema, "PATCH", { enabled });
    setBusy(null);
    if (!result.ok) {
      setOutcome({ tone: "bad", text: `Could not turn ${name} ${enabled ? "on" : "off"}: ${result.error.message}` });
      return;
    }
    setServer(result.data);
    setOutcome(
      enabled
        ? { tone: "ok", text: `Turned back on. The next message tries ${name} again.` }
        : { tone: "ok", text: `Turned off. The agent will not try ${name} until you turn it back on.` },
    );
  };

  const test = async () => {
    setBusy("test");
    setOutcome(null);
    const result = await requestJson(`${path}/test`, McpTestResultSchema, "POST");
    setBusy(null);
    if (!result.ok) {
      setOutcome({ tone: "bad", text: `Could not test ${name}: ${result.error.message}` });
      return;
    }
    setServer(result.data.server);
    const tools = result.data.server.tools.length;
    setOutcome(
      result.data.ok
        ? {
            tone: "ok",
            text: `${name} answers now (${plural(tools, "tool")}).${result.data.server.enabled ? " The next message offers its tools again." : ""}`,
          }
        : { tone: "bad", text: `Still unreachable: ${sentence(result.data.error ?? "no answer")}` },
    );
  };

  const label = (verb: string) => `${verb} (${name})`;
  return (
    <div class={style.server} data-testid="mcp-notice-server" data-server={name} data-enabled={String(current.enabled)}>
      <div class={style.buttons}>
        {current.enabled ? (
          <button
            type="button"
            onClick={() => void setEnabled(false)}
            disabled={busy !== null}
            aria-busy={busy === "off"}
            aria-label={label("Turn off this server")}
            data-testid="mcp-notice-turn-off"
          >
            {busy === "off" ? "Turning off…" : "Turn off this server"}
          </button>
        ) : (
          <button
            type="button"
            onClick={() => void setEnabled(true)}
            disabled={busy !== null}
            aria-busy={busy === "on"}
            aria-label={label("Turn this server back on")}
            data-testid="mcp-notice-turn-on"
          >
            {busy === "on" ? "Turning on…" : "Turn back on"}
          </button>
        )}
        <button
          type="button"
          onClick={() => void test()}
          disabled={busy !== null}
          aria-busy={busy === "test"}
          aria-label={label("Test again")}
          data-testid="mcp-notice-test"
        >
          {busy === "test" ? "Testing…" : "Test again"}
        </button>
        <Link href="/settings/tools" class={style.link}>
          Settings → Tools
        </Link>
      </div>
      {!current.enabled && !outcome && (
        <p class={style.note} data-testid="mcp-notice-off">
          {name} is off: the agent does not use it.
        </p>
      )}
      <p class={outcome?.tone === "bad" ? style.bad : style.ok} role="status" data-testid="mcp-notice-outcome">
        {outcome?.text ?? ""}
      </p>
    </div>
  );
}

/** The actions for each server a notice names; the user's servers are read once, when the card shows. */
export function McpNoticeActions({ servers }: { servers: string[] }) {
  const [listed, setListed] = useState<McpServer[] | "loading" | "failed">("loading");
  useEffect(() => {
    let live = true;
    void requestJson(BASE, McpServerListSchema).then((result) => {
      if (live) setListed(result.ok ? result.data.servers : "failed");
    });
    return () => {
      live = false;
    };
  }, []);
  const lookup = (name: string): Lookup => {
    if (listed === "loading") return { status: "loading" };
    if (listed === "failed") return { status: "failed" };
    const server = listed.find((s) => s.name === name);
    return server ? { status: "found", server } : { status: "gone" };
  };
  return (
    <div class={style.actions} data-testid="mcp-notice-actions">
      {servers.map((name) => (
        <ServerActions key={name} name={name} lookup={lookup(name)} />
      ))}
    </div>
  );
}
