// A handful of inline SVG icons. Emoji would need an emoji font the user may not have (they render as
// empty boxes on many Linux machines); these draw the same everywhere and are decorative only.
const PATHS = {
  lock: "M7 11V8a5 5 0 0 1 10 0v3M5 11h14v10H5z",
  file: "M14 3H6v18h12V7zM14 3v4h4",
  book: "M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2zM4 21V5",
  flow: "M4 12a8 8 0 0 1 14-5.3M20 12a8 8 0 0 1-14 5.3M18 3v4h-4M6 21v-4h4",
  clock: "M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z",
  wrench: "M14.7 6.3a4 4 0 0 0 5 5L13 18a2.1 2.1 0 0 1-3-3l6.7-6.7a4 4 0 0 0-5-5l2.6 2.6z",
  pin: "M9 4h6l-1 6 3 3v1H7v-1l3-3zM12 14v6",
  menu: "M4 7h16M4 12h16M4 17h16",
  gauge: "M4 17a8 8 0 1 1 16 0M12 17l4-5",
  sliders:
    "M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M14 6a2 2 0 1 0 4 0a2 2 0 1 0-4 0M8 12a2 2 0 1 0 4 0a2 2 0 1 0-4 0M16 18a2 2 0 1 0 4 0a2 2 0 1 0-4 0",
  copy: "M9 9h10v10H9zM5 15V5h10",
  refresh: "M20 12a8 8 0 1 1-2.3-5.7M20 4v5h-5",
  info: "M12 11v6M12 7.5v.01M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z",
  speaker: "M4 9h4l5-4v14l-5-4H4zM16.5 9a4 4 0 0 1 0 6M19 6.5a8 8 0 0 1 0 11",
  check: "M5 12l5 5L20 7",
  stop: "M7 7h10v10H7z",
  dots: "M4 12a1 1 0 1 0 2 0a1 1 0 1 0-2 0M11 12a1 1 0 1 0 2 0a1 1 0 1 0-2 0M18 12a1 1 0 1 0 2 0a1 1 0 1 0-2 0",
  paperclip: "M20 11.5l-8.2 8.2a5 5 0 0 1-7.1-7.1l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7l-8.5 8.5a1.7 1.7 0 0 1-2.4-2.4L15 7",
} as const;

export type IconName = keyof typeof PATHS;

/**
 * `size` as a CSS length: 1em (the text's size) unless a button wants its icon a set size. `path`: an
 * icon of a part loaded on demand, which keeps its drawing out of the first load (ui/icon/paths.ts).
 */
export function Icon({ name, path, size = "1em" }: { name?: IconName; path?: string; size?: string }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      style={{ verticalAlign: "-0.125em", flexShrink: 0 }}
    >
      <path d={path ?? (name && PATHS[name])} />
    </svg>
  );
}
