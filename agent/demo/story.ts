// The demo's slow path for trying Stop: a long story, streamed a word at a time.

const STORY_PLACES = [
  "a lighthouse at the end of a long pier",
  "a library carved into a mountain",
  "a market that only opened at dusk",
  "a garden where every path curved back on itself",
  "a harbour full of paper boats",
  "an observatory with a cracked lens",
  "a village that kept its clocks an hour late",
  "a bridge nobody remembered building",
  "a station where the trains ran on questions",
  "a quiet room at the top of a winding stair",
];
const STORY_KEEPERS = [
  "an old keeper",
  "a patient archivist",
  "a spice merchant",
  "a gardener",
  "a boatwright",
  "an astronomer",
  "a clockmaker",
  "a surveyor",
  "a conductor",
  "a child with a notebook",
];
const STORY_COLOURS = ["grey", "gold", "amber", "blue", "silver", "violet", "green", "rose", "copper", "white"];

/** The slow path for trying Stop: about 800 words, streamed a word at a time. */
export function longStory(): string {
  const chapters = STORY_PLACES.map((place, i) => {
    const keeper = STORY_KEEPERS[i] ?? "a stranger";
    const from = STORY_COLOURS[i] ?? "grey";
    const to = STORY_COLOURS[(i + 3) % STORY_COLOURS.length] ?? "blue";
    return (
      `Chapter ${i + 1}. The Oracle travelled to ${place}, where ${keeper} kept a box of unanswered letters. ` +
      `"What do you remember?" the Oracle asked. The keeper opened an old notebook and read one line aloud, slowly, ` +
      "as if every word had to be weighed before it was allowed into the room. The Oracle wrote the line into the vault, " +
      `added a task to come back one day, and walked on while the sky turned from ${from} to ${to}.`
    );
  });
  return [
    "Here is a long story (the demo's slow path: press Stop whenever you like).",
    ...chapters,
    "And when the Oracle finally came home, the vault was full, the task list was long, and every answer had a question waiting behind it. The end.",
  ].join("\n\n");
}
