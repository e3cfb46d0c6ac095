// Settings → Web's state (docs/protocol.md "The web"): GET /api/settings/web once, then each change a
// PUT of only what changed (WebSettingsPatch), whose answer is the settings as saved.
import { useEffect, useState } from "preact/hooks";
import { type WebSettings, type WebSettingsPatch, WebSettingsSchema } from "../../../../../protocol";
import { type ApiResult, requestJson } from "../../../lib/api";

export type WebSettingsState =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; settings: WebSettings };

const PATH = "/api/settings/web";

export function useWebSettings() {
  const [state, setState] = useState<WebSettingsState>({ status: "loading" });
  useEffect(() => {
    let live = true;
    void requestJson(PATH, WebSettingsSchema).then((result) => {
      if (!live) return;
      if (result.ok) setState({ status: "ready", settings: result.data });
      else
        setState({
          status: "failed",
          message:
            result.error.status === 404
              ? "The web tools are not available on this server yet."
              : `Could not load your web settings: ${result.error.message}`,
        });
    });
    return () => {
      live = false;
    };
  }, []);

  /** Saves a change; on success the page shows the settings as the server now holds them. */
  const save = async (patch: WebSettingsPatch): Promise<ApiResult<WebSettings>> => {
    const result = await requestJson(PATH, WebSettingsSchema, "PUT", patch);
    if (result.ok) setState({ status: "ready", settings: result.data });
    return result;
  };

  /** Shows `settings` at once (a switch that moved), before the server answers. */
  const show = (settings: WebSettings) => setState({ status: "ready", settings });

  return { state, save, show };
}
