// Settings → Help: what Oracle is, how to start, what the agent can do, where to learn more, the
// keyboard shortcuts (lib/use-shortcuts.ts, with ⌘ on a Mac and Ctrl elsewhere) and the app's version.
import { Fragment } from "preact";
import { PLACE_KEYS, SHORTCUTS } from "../../lib/use-shortcuts";
import { Link } from "../../ui/link";
import style from "./style.module.css";

const MAC = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

function Keys({ keys }: { keys: string[] }) {
  return (
    <>
      {keys.map((key, index) => (
        <span key={key}>
          {index > 0 && " + "}
          <kbd>{key === "Mod" ? (MAC ? "⌘" : "Ctrl") : key}</kbd>
        </span>
      ))}
    </>
  );
}

export function Help() {
  return (
    <div class={style.help} data-testid="help">
      <section aria-labelledby="help-about-title" data-testid="help-about">
        <h2 id="help-about-title" class={style.helpTitle}>
          What Oracle is
        </h2>
        <p>
          Oracle is a chat with an AI agent, the Oracle, that works on your notes and tasks. Ask in plain words: it
          plans, uses its tools step by step and shows each step, then answers. A conversation runs on the server, so
          you can close the tab and come back to it, on this device or another.
        </p>
      </section>
      <section aria-labelledby="help-start-title" data-testid="help-start">
        <h2 id="help-start-title" class={style.helpTitle}>
          Getting started
        </h2>
        <ol class={style.steps}>
          <li>
            <Link href="/">Start a conversation</Link> from the home page: type a question or a job, or pick an example.
          </li>
          <li>
            Choose a model in <Link href="/settings/models">Models</Link>: add your provider's address and key. Until
            then a demo model answers, without a key.
          </li>
          <li>
            Connect your own tools in <Link href="/settings/tools">Tools</Link> (MCP servers), and choose which ones ask
            you first.
          </li>
          <li>
            Set how far one answer may go (steps, tokens, time) in <Link href="/settings/agent">Agent</Link>.
          </li>
        </ol>
      </section>
      <section aria-labelledby="help-can-title" data-testid="help-can">
        <h2 id="help-can-title" class={style.helpTitle}>
          What the agent can do
        </h2>
        <ul class={style.steps}>
          <li>
            Read, search and write your <Link href="/notes">notes</Link> and keep your <Link href="/tasks">tasks</Link>.
            In a message, <kbd>@</kbd> points at a note, <kbd>#</kbd> at a knowledge entry and <kbd>/</kbd> runs a
            workflow from the <Link href="/library">Library</Link>.
          </li>
          <li>
            Search the web and read pages, the links you send included, and cite them in its answer as numbered sources
            (<Link href="/settings/web">Web</Link>).
          </li>
          <li>Ask you a question, or your approval before a tool runs, and wait for your answer.</li>
          <li>Hand a part of the job to a helper agent, shown under the step that started it.</li>
          <li>
            Run at a time you set, once or on a rule (<Link href="/schedules">Schedules</Link>), or when you ask it to
            remind you.
          </li>
          <li>
            Take your words by voice (the microphone beside the message box) and read an answer aloud, where the browser
            can.
          </li>
        </ul>
        <p>
          Edit any message or regenerate any answer to get another version; share a conversation as a read-only link
          from its ⋯ menu.
        </p>
      </section>
      <section aria-labelledby="shortcuts-title">
        <h2 id="shortcuts-title" class={style.helpTitle}>
          Keyboard shortcuts
        </h2>
        <dl class={style.shortcuts} data-testid="shortcuts">
          {[...SHORTCUTS, ...PLACE_KEYS].map(({ keys, does }) => (
            <Fragment key={does}>
              <dt>
                <Keys keys={keys} />
              </dt>
              <dd>{does}</dd>
            </Fragment>
          ))}
        </dl>
      </section>
      <section aria-labelledby="help-more-title" data-testid="help-more">
        <h2 id="help-more-title" class={style.helpTitle}>
          More help
        </h2>
        <p>
          Ask the Oracle itself how to do something here. Oracle's README and the documents beside it (docs/ in its
          source) explain every feature in depth, how to run and deploy it, and its API for scripts (make a token in{" "}
          <Link href="/settings/account">Account</Link>). Whoever runs this Oracle for you can help with your account
          and the models it offers.
        </p>
        <p class={style.version} data-testid="app-version">
          Oracle {__APP_VERSION__}
        </p>
      </section>
    </div>
  );
}
