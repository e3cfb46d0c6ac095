// Text that is not valid Unicode is refused at every boundary (HTTP bodies in worker/validate.ts,
// socket frames in durable-objects/conversation/sockets/client-frames.ts), never altered: a lone UTF-16
// surrogate such as JSON's "\ud800" has no UTF-8 form, so storing it would silently turn it into U+FFFD.

/** In u-mode a surrogate pair is one code point (an emoji, say), so only a lone surrogate matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;
const LONE_SURROGATES = /\p{Surrogate}/gu;

export const NOT_UNICODE = "not valid Unicode (lone surrogate)";

type Node = { value: unknown; key?: string; parent?: Node };

/**
 * The path ("title", "items.0.name"; "_" for the value itself) of the first string or object key
 * in a parsed JSON value that holds a lone surrogate, or undefined when all text is well formed.
 * Breadth first with parent links, so a deeply nested body costs time linear in its size.
 */
export function illFormedTextField(value: unknown): string | undefined {
  const queue: Node[] = [{ value }];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as Node;
    if (typeof node.value === "string" && LONE_SURROGATE.test(node.value)) return pathOf(node);
    if (typeof node.value !== "object" || node.value === null) continue;
    for (const [key, child] of Object.entries(node.value)) {
      const entry = { value: child, key, parent: node };
      if (LONE_SURROGATE.test(key)) return pathOf(entry);
      queue.push(entry);
    }
  }
  return undefined;
}

/** The dotted path of a node; a bad key is named with U+FFFD in place of its lone surrogates. */
function pathOf(node: Node): string {
  const keys: string[] = [];
  for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) {
    keys.unshift(at.key.replace(LONE_SURROGATES, "\uFFFD"));
  }
  return keys.length ? keys.join(".") : "_";
}
