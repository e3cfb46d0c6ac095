// Settings → Personalization (docs/protocol.md "Projects, instructions and memory"): what the agent should
// know about the user and how it should answer, given to every new conversation (and to an open one
// before its next message, which the chat shows); the memory switch; and every memory, to read, correct
// or delete (components/memory-list).
import { useEffect, useState } from "preact/hooks";
import { MAX_INSTRUCTIONS_CHARS } from "../../../../../protocol/projects";
import { MemoryList } from "../../../components/memory-list";
import { pageStyle as page } from "../../../components/page-frame";
import { FormStatus, formStyle as kit } from "../../../components/settings-form";
import { listProjects, type Project, readInstructions, saveInstructions } from "../../../lib/projects";
import { SwitchRow } from "../../../ui/switch";
import style from "./style.module.css";

function Box(props: { id: string; label: string; hint: string; value: string; onInput: (v: string) => void }) {
  return (
    <div class={style.field}>
      <label class={style.label} for={props.id}>
        {props.label}
      </label>
      <span class={kit.hint}>{props.hint}</span>
      <textarea
        id={props.id}
        class={style.box}
        value={props.value}
        maxLength={MAX_INSTRUCTIONS_CHARS}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        data-testid={props.id}
      />
      <span class={style.count}>
        {props.value.length.toLocaleString("en-US")} / {MAX_INSTRUCTIONS_CHARS.toLocaleString("en-US")}
      </span>
    </div>
  );
}

export function Personalization() {
  const [about, setAbout] = useState<string | null>(null);
  const [styleText, setStyle] = useState("");
  const [memory, setMemory] = useState(true);
  const [status, setStatus] = useState<{ text: string; failed?: boolean } | null>(null);
  const [projects, setProjects] = useState<Project[]>([]);
  useEffect(() => {
    void readInstructions().then((read) => {
      if (!read.ok) return setStatus({ text: read.error.message, failed: true });
      setAbout(read.data.about);
      setStyle(read.data.style);
      setMemory(read.data.memory);
    });
    void listProjects().then((listed) => listed.ok && setProjects(listed.data.projects));
  }, []);
  if (about === null)
    return status ? (
      <p class={page.statusError} role="alert">
        {status.text}
      </p>
    ) : (
      <p class={page.muted}>Loading…</p>
    );
  const save = async (event: Event) => {
    event.preventDefault();
    const saved = await saveInstructions({ about, style: styleText });
    setStatus(
      saved.ok
        ? { text: "Saved. New conversations start with it; open ones get it before your next message." }
        : { text: `Could not save: ${saved.error.message}`, failed: true },
    );
  };
  const toggle = async (on: boolean) => {
    setMemory(on);
    const saved = await saveInstructions({ memory: on });
    if (!saved.ok) {
      setMemory(!on);
      setStatus({ text: `Could not save: ${saved.error.message}`, failed: true });
    }
  };
  return (
    <section data-testid="personalization">
      <p class={kit.intro}>
        Tell the agent once who you are and how you like answers: every new conversation starts with it.
      </p>
      <form onSubmit={(e) => void save(e)}>
        <Box
          id="instructions-about"
          label="What should the agent know about you?"
          hint="Your work, your interests, what you are working towards."
          value={about}
          onInput={setAbout}
        />
        <Box
          id="instructions-style"
          label="How should it answer?"
          hint="Tone, length, format, units, language."
          value={styleText}
          onInput={setStyle}
        />
        <button type="submit" class={page.primary} data-testid="instructions-save">
          Save
        </button>
        <FormStatus text={status?.text} failed={status?.failed} testid="instructions-status" />
      </form>
      <h2 class={style.heading}>Memory</h2>
      <SwitchRow
        id="memory-switch"
        label="Let the agent remember"
        hint="It saves what you tell it about yourself and your work, and new conversations start with it. You see each memory it saves, and can undo it."
        checked={memory}
        onChange={(on) => void toggle(on)}
      />
      <MemoryList projects={projects} />
    </section>
  );
}
