// The Responses API on servers other than OpenAI's own (llama.cpp's llama-server, and others that copy
// its shape). @ai-sdk/openai validates every stream event against OpenAI's exact schema, and such
// servers leave fields out (sequence_number, output_index, created_at and model on response.created),
// so every event failed validation and the turn's answer was a zod dump. They also stream their
// reasoning as `response.reasoning_text.delta`, which @ai-sdk/openai does not read (it reads OpenAI's
// reasoning summaries), and refuse a replayed assistant message without `type: "message"`. This fetch
// wrapper mends both directions at the edge, so the provider and the loop see what OpenAI would send:
// - the request: an input item with a `role` and no `type` gets `type: "message"` (OpenAI accepts it too);
// - the stream: missing fields are filled in (only where missing), reasoning text becomes the reasoning
//   summary events, and an answer that used the whole output cap says so (incomplete, max_output_tokens).
// Only POSTs to …/responses are touched; everything else goes through as it was.

type Json = Record<string, unknown>;

export function responsesCompatFetch(inner: typeof fetch): typeof fetch {
  const wrapped = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (!isResponsesUrl(input)) return inner(input, init);
    const request = typeof init?.body === "string" ? parseObject(init.body) : undefined;
    const body = request ? rewriteRequest(request, init?.body as string) : init?.body;
    const response = await inner(input, body === init?.body ? init : { ...init, body });
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !response.body || !type.includes("text/event-stream")) return response;
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    const events = new ResponsesStreamMender({
      model: typeof request?.model === "string" ? request.model : "unknown",
      maxOutputTokens: typeof request?.max_output_tokens === "number" ? request.max_output_tokens : undefined,
    });
    const stream = response.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(sseEvents(events))
      .pipeThrough(new TextEncoderStream());
    return new Response(stream, { status: response.status, statusText: response.statusText, headers });
  };
  return wrapped as typeof fetch;
}

function isResponsesUrl(input: RequestInfo | URL): boolean {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  try {
    return new URL(url).pathname.replace(/\/+$/, "").endsWith("/responses");
  } catch {
    return false;
  }
}

function parseObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The body to send: the same bytes unless an input item needed its `type`. */
function rewriteRequest(request: Json, original: string): string {
  if (!Array.isArray(request.input)) return original;
  let changed = false;
  const input = request.input.map((item: unknown) => {
    if (!isObject(item) || item.type !== undefined || typeof item.role !== "string") return item;
    changed = true;
    return { type: "message", ...item };
  });
  return changed ? JSON.stringify({ ...request, input }) : original;
}

/**
 * Splits the text stream into SSE events (a blank line ends one; an event may arrive in pieces),
 * hands each `data:` payload to the mender and writes what it returns. Nothing waits for the end.
 */
function sseEvents(mender: ResponsesStreamMender): TransformStream<string, string> {
  let pending = "";
  let lines: string[] = [];
  const flushEvent = (controller: TransformStreamDefaultController<string>) => {
    const event = lines;
    lines = [];
    if (event.length === 0) return;
    const data = event.filter((l) => l.startsWith("data:")).map((l) => l.slice(l.startsWith("data: ") ? 6 : 5));
    const payload = data.length > 0 ? parseObject(data.join("\n")) : undefined;
    if (!payload) {
      controller.enqueue(`${event.join("\n")}\n\n`);
      return;
    }
    for (const out of mender.mend(payload)) {
      controller.enqueue(`event: ${String(out.type)}\ndata: ${JSON.stringify(out)}\n\n`);
    }
  };
  return new TransformStream<string, string>({
    transform(chunk, controller) {
      pending += chunk;
      // A "\r" at the end may be the first half of "\r\n": it waits for the next piece.
      const cut = pending.endsWith("\r") ? pending.length - 1 : pending.length;
      const complete = pending.slice(0, cut).split(/\r\n|\r|\n/);
      pending = (complete.pop() ?? "") + pending.slice(cut);
      for (const line of complete) {
        if (line === "") flushEvent(controller);
        else lines.push(line);
      }
    },
    flush(controller) {
      const rest = pending.replace(/\r$/, "");
      if (rest !== "") lines.push(rest);
      pending = "";
      flushEvent(controller);
    },
  });
}

interface MenderOptions {
  /** The model the request named: response.created needs one and the server may not say. */
  model: string;
  maxOutputTokens: number | undefined;
}

/** Fills in, per event, what @ai-sdk/openai's chunk schema requires, and maps reasoning text. */
export class ResponsesStreamMender {
  private sequence = 0;
  private readonly outputIndex = new Map<string, number>();
  /** Reasoning items whose summary part is open (added, not yet done). */
  private readonly openReasoning = new Set<string>();
  /** Reasoning items added and not yet done, and those we ended ourselves when the next item began. */
  private readonly unfinishedReasoning = new Set<string>();
  private readonly endedEarly = new Set<string>();
  private readonly createdAt = Math.floor(Date.now() / 1000);
  private responseId = `resp_compat_${this.createdAt}`;

  constructor(private readonly options: MenderOptions) {}

  mend(event: Json): Json[] {
    if (typeof event.type !== "string") return isObject(event.error) ? [this.stamp(this.error(event.error))] : [event];
    const out: Json[] = [];
    switch (event.type) {
      case "response.created":
      case "response.in_progress":
      case "response.completed":
      case "response.incomplete":
      case "response.failed":
        out.push(this.response(event));
        break;
      case "response.output_item.added":
        out.push(...this.itemAdded(event));
        break;
      case "response.output_item.done":
        out.push(...this.itemDone(event));
        break;
      case "response.reasoning_text.delta":
        out.push(...this.reasoningDelta(event));
        break;
      case "response.reasoning_text.done":
        out.push(...this.closeReasoning(String(event.item_id ?? ""), event.text));
        break;
      default:
        out.push(this.withIndexes(event));
    }
    return out.map((e) => this.stamp(e));
  }

  private stamp(event: Json): Json {
    const sequence_number = typeof event.sequence_number === "number" ? event.sequence_number : this.sequence;
    this.sequence = sequence_number + 1;
    return { ...event, sequence_number };
  }

  private indexOf(itemId: string): number {
    let index = this.outputIndex.get(itemId);
    if (index === undefined) {
      index = this.outputIndex.size;
      this.outputIndex.set(itemId, index);
    }
    return index;
  }

  /** output_index from the item, content/summary indexes 0 (these servers send one part per item). */
  private withIndexes(event: Json): Json {
    const itemId = typeof event.item_id === "string" ? event.item_id : undefined;
    const filled: Json = { ...event };
    if (itemId !== undefined && typeof filled.output_index !== "number") filled.output_index = this.indexOf(itemId);
    if (/^response\.(output_text|content_part|refusal)\./.test(String(event.type))) filled.content_index ??= 0;
    if (String(event.type).startsWith("response.reasoning_summary_")) filled.summary_index ??= 0;
    return filled;
  }

  private response(event: Json): Json {
    const given = isObject(event.response) ? event.response : {};
    if (typeof given.id === "string") this.responseId = given.id;
    const response: Json = {
      ...given,
      id: typeof given.id === "string" ? given.id : this.responseId,
      created_at: typeof given.created_at === "number" ? given.created_at : this.createdAt,
      model: typeof given.model === "string" ? given.model : this.options.model,
    };
    const usage = isObject(given.usage) ? given.usage : undefined;
    const cap = this.options.maxOutputTokens;
    // The server stopped at the output cap without saying so: say it, so the answer is known to be cut.
    if (event.type === "response.completed" && cap !== undefined && usage && Number(usage.output_tokens) >= cap) {
      response.status = "incomplete";
      response.incomplete_details ??= { reason: "max_output_tokens" };
    }
    return { ...event, response };
  }

  private itemAdded(event: Json): Json[] {
    const item = isObject(event.item) ? { ...event.item } : {};
    const id = typeof item.id === "string" ? item.id : `item_${this.outputIndex.size}`;
    item.id = id;
    const out = this.endReasoningEarly();
    if (item.type === "function_call") {
      item.call_id ??= id;
      item.arguments ??= "";
    }
    const output_index = typeof event.output_index === "number" ? event.output_index : this.indexOf(id);
    this.outputIndex.set(id, output_index);
    out.push({ ...event, output_index, item });
    if (item.type === "reasoning") {
      this.openReasoning.add(id);
      this.unfinishedReasoning.add(id);
      out.push({
        type: "response.reasoning_summary_part.added",
        item_id: id,
        output_index,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      });
    }
    return out;
  }

  private itemDone(event: Json): Json[] {
    const item = isObject(event.item) ? { ...event.item } : {};
    const id = typeof item.id === "string" ? item.id : "";
    if (item.type === "reasoning" && this.endedEarly.delete(id)) return [];
    this.unfinishedReasoning.delete(id);
    const out = item.type === "reasoning" ? this.closeReasoning(id, undefined) : [];
    if (item.type === "function_call") {
      item.call_id ??= id;
      item.status ??= "completed";
    }
    const output_index = typeof event.output_index === "number" ? event.output_index : this.indexOf(id);
    out.push({ ...event, output_index, item });
    return out;
  }

  private reasoningDelta(event: Json): Json[] {
    const itemId = String(event.item_id ?? "");
    // A delta for an item never announced: announce it, so the reasoning has a start.
    const out = this.outputIndex.has(itemId)
      ? []
      : this.itemAdded({ type: "response.output_item.added", item: { type: "reasoning", id: itemId } });
    out.push({
      type: "response.reasoning_summary_text.delta",
      item_id: itemId,
      output_index: this.indexOf(itemId),
      summary_index: 0,
      delta: typeof event.delta === "string" ? event.delta : "",
      ...(typeof event.sequence_number === "number" ? { sequence_number: event.sequence_number } : {}),
    });
    return out;
  }

  private closeReasoning(itemId: string, text: unknown): Json[] {
    if (!this.openReasoning.delete(itemId)) return [];
    const base = { item_id: itemId, output_index: this.indexOf(itemId), summary_index: 0 };
    const done: Json[] = [];
    if (typeof text === "string") done.push({ type: "response.reasoning_summary_text.done", ...base, text });
    done.push({
      type: "response.reasoning_summary_part.done",
      ...base,
      part: { type: "summary_text", text: text ?? "" },
    });
    return done;
  }

  /**
   * A new output item ends the reasoning before it. llama-server sends a reasoning item's done only at
   * the very end, after the answer, and @ai-sdk/openai ends the reasoning only there: without this the
   * reasoning would seem to last as long as the whole answer. Its late done is dropped (itemDone).
   */
  private endReasoningEarly(): Json[] {
    return [...this.unfinishedReasoning].flatMap((id) => {
      this.unfinishedReasoning.delete(id);
      this.endedEarly.add(id);
      const item = { type: "reasoning", id, summary: [] };
      return [
        ...this.closeReasoning(id, undefined),
        { type: "response.output_item.done", output_index: this.indexOf(id), item },
      ];
    });
  }

  private error(error: Json): Json {
    return {
      type: "error",
      message: typeof error.message === "string" ? error.message : "The model server reported an error.",
      code: error.code === undefined || error.code === null ? null : String(error.code),
      param: typeof error.param === "string" ? error.param : null,
    };
  }
}
