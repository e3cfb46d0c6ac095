// What a person can do from an "MCP server unavailable" card (issue 26) instead of reading the same
// card every turn: turn the server off (PATCH /api/mcp-servers/:id {enabled: false}), turn it back on,
// or test it again (POST …/test), each with its outcome in words on the card. The card names the
// server as Settings → Tools does, so the server is found by name in the user's list, which the card
// reads, changes and tests through the same hook as Settings → Tools (lib/use-mcp-servers.ts).
import { useState } from "preact/hooks";
import type { McpServer } from "../../../../protocol";
import { plural } from "../../lib/plural";
import { useMcpServers } from "../../lib/use-mcp-servers";
import { Link } from "../../ui/link";
import style from "./style.module.css";

type Lookup =
  | { status: "loading" }
  | { status: "gone" }
  | { status: "failed" }
  | { status: "found"; server: McpServer };
type Outcome = { tone: "ok" | "bad"; text: string };
type Servers = ReturnType<typeof useMcpServers>;

/** Text ending in one full stop, however the server's error ended. */
const sentence = (text: string) => `${text.trim().replace(/[.\s]+$/, "")}.`;

function ServerActions({ name, lookup, servers }: { name: string; lookup: Lookup; servers: Servers }) {
  const [busy, setBusy] = useState<"off" | "on" | "test" | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const current = lookup.status === "found" ? lookup.server : null;

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

  const setEnabled = async (enabled: boolean) => {
    setBusy(enabled ? "on" : "off");
    setOutcome(null);
    const result = await servers.update(current, { enabled }, { quiet: true });
    setBusy(null);
    if (!result.ok) {
      setOutcome({ tone: "bad", text: `Could not turn ${name} ${enabled ? "on" : "off"}: ${result.error.message}` });
      return;
    }
    setOutcome(
      enabled
        ? { tone: "ok", text: `Turned back on. The next message tries ${name} again.` }
        : { tone: "ok", text: `Turned off. The agent will not try ${name} until you turn it back on.` },
    );
  };

  const test = async () => {
    setBusy("test");
    setOutcome(null);
    const result = await servers.test(current.id);
    setBusy(null);
    if (!result.ok) {
      setOutcome({ tone: "bad", text: `Could not test ${name}: ${result.error.message}` });
      return;
    }
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
export function McpNoticeActions({ servers: names }: { servers: string[] }) {
  const servers = useMcpServers();
  const { state } = servers;
  const lookup = (name: string): Lookup => {
    if (state.status === "loading") return { status: "loading" };
    if (state.status !== "ready") return { status: "failed" };
    const server = state.items.find((s) => s.name === name);
    return server ? { status: "found", server } : { status: "gone" };
  };
  return (
    <div class={style.actions} data-testid="mcp-notice-actions">
      {names.map((name) => (
        <ServerActions key={name} name={name} lookup={lookup(name)} servers={servers} />
      ))}
    </div>
  );
}
