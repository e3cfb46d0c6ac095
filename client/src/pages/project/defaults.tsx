// What a project's conversations run with (docs/protocol.md "Projects, instructions and memory"), over the
// user's own settings: the model a new conversation starts with, the approach (decision tree), the step
// limit, the tools switched off, and which of the user's MCP servers it uses. Blank means "as in
// Settings".
import { useEffect, useState } from "preact/hooks";
import { type McpServer, McpServerListSchema } from "../../../../protocol";
import type { Project } from "../../../../protocol/projects";
import { pageStyle as page } from "../../components/page-frame";
import { FormStatus } from "../../components/settings-form";
import { requestJson } from "../../lib/api";
import { updateProject } from "../../lib/projects";
import { byProvider, modelLabel, parseRefKey, refKey, refOf, useModels } from "../../lib/use-models";
import { listOf } from "./list-of";
import style from "./style.module.css";

const TREES = ["default", "roa"];

export function ProjectDefaults({ project, onSaved }: { project: Project; onSaved: (p: Project) => void }) {
  const models = useModels();
  const [servers, setServers] = useState<McpServer[]>([]);
  const { agent, tools_off, mcp_servers } = project.defaults;
  const [model, setModel] = useState(project.model ? refKey(project.model) : "");
  const [tree, setTree] = useState(agent.decisionTree ?? "");
  const [steps, setSteps] = useState(agent.maxIterations ? String(agent.maxIterations) : "");
  const [toolsOff, setToolsOff] = useState(tools_off.join(", "));
  const [serversOn, setServersOn] = useState<string[] | null>(mcp_servers);
  const [status, setStatus] = useState<{ text: string; failed?: boolean } | null>(null);
  useEffect(() => {
    void requestJson("/api/mcp-servers", McpServerListSchema).then((listed) => {
      if (listed.ok) setServers(listed.data.servers.filter((s) => s.enabled));
    });
  }, []);
  const toggleServer = (id: string, on: boolean) => {
    const current = serversOn ?? servers.map((s) => s.id);
    const next = on ? [...current, id] : current.filter((s) => s !== id);
    setServersOn(next.length === servers.length ? null : next);
  };
  const save = async (event: Event) => {
    event.preventDefault();
    const limit = steps.trim() ? Number(steps) : undefined;
    const saved = await updateProject(project.id, {
      model: parseRefKey(model),
      defaults: {
        agent: { ...(tree ? { decisionTree: tree } : {}), ...(limit !== undefined ? { maxIterations: limit } : {}) },
        tools_off: listOf(toolsOff),
        mcp_servers: serversOn,
      },
    });
    if (!saved.ok)
      return setStatus({
        text: `Could not save: ${Object.values(saved.error.fields)[0] ?? saved.error.message}`,
        failed: true,
      });
    setStatus({ text: "Saved: its conversations use these from their next message." });
    onSaved(saved.data);
  };
  const list = models.status === "ready" ? models.list.models : [];
  return (
    <form class={style.section} onSubmit={(e) => void save(e)} data-testid="project-defaults">
      <h2 class={style.heading}>How its conversations run</h2>
      <div class={style.grid}>
        <label>
          Model of a new conversation
          <select value={model} onChange={(e) => setModel(e.currentTarget.value)} data-testid="project-model">
            <option value="">Your default model</option>
            {byProvider(list).map((group) => (
              <optgroup key={group.id} label={group.name}>
                {group.models.map((m) => (
                  <option key={refKey(refOf(m))} value={refKey(refOf(m))}>
                    {modelLabel(m)}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label>
          Approach
          <select value={tree} onChange={(e) => setTree(e.currentTarget.value)} data-testid="project-tree">
            <option value="">As in Settings</option>
            {TREES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Steps per answer
          <input
            type="number"
            min={1}
            max={50}
            value={steps}
            placeholder="As in Settings"
            onInput={(e) => setSteps(e.currentTarget.value)}
            data-testid="project-max-steps"
          />
        </label>
        <label>
          Tools switched off
          <input
            value={toolsOff}
            placeholder="web_search, github__create_issue"
            onInput={(e) => setToolsOff(e.currentTarget.value)}
            data-testid="project-tools-off"
          />
        </label>
      </div>
      {servers.length > 0 && (
        <fieldset class={style.servers}>
          <legend>MCP servers it uses</legend>
          {servers.map((server) => (
            <label key={server.id}>
              <input
                type="checkbox"
                checked={serversOn === null || serversOn.includes(server.id)}
                onChange={(e) => toggleServer(server.id, e.currentTarget.checked)}
              />{" "}
              {server.name}
            </label>
          ))}
        </fieldset>
      )}
      <button type="submit" class={`${page.primary} ${style.save}`} data-testid="project-defaults-save">
        Save
      </button>
      <FormStatus text={status?.text} failed={status?.failed} testid="project-defaults-status" />
    </form>
  );
}
