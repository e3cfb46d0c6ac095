// Settings → Tools, approvals: GET /api/tool-approvals once, PUT per change. A choice shows at once and
// goes back, with the server's words, if the server refuses it. Shared by the built-in list and every
// MCP tool row through a context (components/tool-approvals).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { type ApprovalMode, type ToolApprovals, ToolApprovalsSchema } from "../../../protocol";
import { requestJson } from "./api";

export type ToolApprovalsState =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; approvals: ToolApprovals };

export type ToolApprovalsApi = {
  state: ToolApprovalsState;
  /** The rule in effect for `key`, or `fallback` (the tool's default) when the user set none. */
  modeOf(key: string, fallback: ApprovalMode): ApprovalMode;
  setMode(key: string, mode: ApprovalMode | "default"): Promise<void>;
  errors: Record<string, string>;
};

function withRule(approvals: ToolApprovals, key: string, mode: ApprovalMode | "default"): ToolApprovals {
  const rules = approvals.rules.filter((r) => r.tool !== key);
  return {
    builtin: approvals.builtin.map((b) =>
      b.tool === key ? { ...b, mode: mode === "default" ? b.default_mode : mode } : b,
    ),
    rules: mode === "default" ? rules : [...rules, { tool: key, mode }],
  };
}

export function useToolApprovals(): ToolApprovalsApi {
  const [state, setState] = useState<ToolApprovalsState>({ status: "loading" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const latest = useRef<Record<string, number>>({});

  useEffect(() => {
    let live = true;
    void requestJson("/api/tool-approvals", ToolApprovalsSchema).then((result) => {
      if (!live) return;
      setState(
        result.ok ? { status: "ready", approvals: result.data } : { status: "failed", message: result.error.message },
      );
    });
    return () => {
      live = false;
    };
  }, []);

  const modeOf = useCallback(
    (key: string, fallback: ApprovalMode) =>
      state.status === "ready" ? (state.approvals.rules.find((r) => r.tool === key)?.mode ?? fallback) : fallback,
    [state],
  );

  const setMode = useCallback(async (key: string, mode: ApprovalMode | "default") => {
    const request = (latest.current[key] ?? 0) + 1;
    latest.current[key] = request;
    let before: ToolApprovals | undefined;
    setState((current) => {
      if (current.status !== "ready") return current;
      before = current.approvals;
      return { status: "ready", approvals: withRule(current.approvals, key, mode) };
    });
    setErrors(({ [key]: _, ...rest }) => rest);
    const result = await requestJson("/api/tool-approvals", ToolApprovalsSchema, "PUT", { tool: key, mode });
    if (latest.current[key] !== request) return;
    if (result.ok) return setState({ status: "ready", approvals: result.data });
    if (before) {
      const previous = before;
      setState({ status: "ready", approvals: previous });
    }
    setErrors((e) => ({ ...e, [key]: `Could not save: ${result.error.message}` }));
  }, []);

  return { state, modeOf, setMode, errors };
}
