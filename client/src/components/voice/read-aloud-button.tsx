// "Read aloud" under an answer: the browser's speech synthesis reads its plain text (lib/speech-text.ts:
// no Markdown marks, code and formulas named), in pieces a browser reads to the end; while it reads the
// button says "Stop reading" and stops it. One answer reads at a time: starting another stops this one.
// Loaded with its first render; the answer shows it only where the browser can speak (lazy.ts).
// speak() is called in the click itself, as a phone's browser requires.
import { useEffect, useRef, useState } from "preact/hooks";
import { parseMarkdown } from "../../lib/markdown";
import { speechChunks, speechText } from "../../lib/speech-text";
import { iconicAction, TouchIcon } from "../message-actions";
import style from "./style.module.css";

/** The button that is reading now: told to show "Read aloud" again when another one starts. */
let reading: (() => void) | null = null;

export function ReadAloudButton({ text }: { text: string }) {
  const [speaking, setSpeaking] = useState(false);
  const done = useRef<() => void>(() => {});

  useEffect(
    () => () => {
      if (reading === done.current) stopReading();
    },
    [],
  );

  const read = () => {
    stopReading();
    const chunks = speechChunks(speechText(parseMarkdown(text), text));
    if (chunks.length === 0) return;
    const finished = () => {
      if (reading === finished) reading = null;
      setSpeaking(false);
    };
    done.current = finished;
    reading = finished;
    chunks.forEach((chunk, index) => {
      const utterance = new SpeechSynthesisUtterance(chunk);
      utterance.onerror = finished;
      if (index === chunks.length - 1) utterance.onend = finished;
      speechSynthesis.speak(utterance);
    });
    setSpeaking(true);
  };

  return (
    <button
      type="button"
      class={`${iconicAction.button} ${style.readAloud}`}
      onClick={() => (speaking ? stopReading() : read())}
      data-testid="read-aloud"
      data-speaking={speaking ? "true" : "false"}
    >
      <TouchIcon name={speaking ? "stop" : "speaker"} />
      <span class={iconicAction.words}>{speaking ? "Stop reading" : "Read aloud"}</span>
    </button>
  );
}

/** Stops whatever is being read, and tells its button. */
function stopReading() {
  const stopped = reading;
  reading = null;
  if (speechSynthesis.speaking || speechSynthesis.pending) speechSynthesis.cancel();
  stopped?.();
}
