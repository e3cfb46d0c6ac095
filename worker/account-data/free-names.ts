// Where an imported note or library entry goes when its own path or slug is taken: beside it, under a
// name that says it was imported ("plan-imported.md", then "plan-imported-2.md"), so an import never
// writes over what the account holds. Pure.
import { MAX_SLUG } from "../../protocol/library";
import { MAX_NOTE_PATH } from "../../protocol/notes";

/** `path` if free, else the first free "<stem>-imported[-n]<extension>" within the path's length limit. */
export function freeNotePath(path: string, taken: ReadonlySet<string>): string {
  if (!taken.has(path)) return path;
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  const cut = dot > slash + 1 ? dot : path.length;
  const [stem, extension] = [path.slice(0, cut), path.slice(cut)];
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "-imported" : `-imported-${n}`;
    const candidate = `${stem.slice(0, MAX_NOTE_PATH - suffix.length - extension.length)}${suffix}${extension}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** `slug` if free, else the first free "<slug>-imported[-n]" of at most MAX_SLUG characters. */
export function freeSlug(slug: string, taken: ReadonlySet<string>): string {
  if (!taken.has(slug)) return slug;
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "-imported" : `-imported-${n}`;
    const candidate = `${slug.slice(0, MAX_SLUG - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
