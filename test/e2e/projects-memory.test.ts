// Issue 47, projects, custom instructions and memory in the browser, on a desktop and on a phone: what
// the user sets reaches the model's request (the fake model's record of it), and only where it should.
//  - Settings → Personalization: the instructions saved there start the next conversation's request,
//    and the chat says so ("Started with your instructions").
//  - A project made from the sidebar, with instructions and a file: a conversation started on its page
//    sends both; a conversation outside it sends neither.
//  - Memory: the agent saves one in a project's conversation ("Memory saved" with its text); Settings
//    lists it with where it came from, and the user edits it; a new conversation of the same project gets
//    the edited text, one in another project does not; Undo on the card forgets it.
//  - Memory off in Settings: the next conversation declares no memory tool and nothing is saved.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Memory, Project } from "../../protocol/projects";
import { marker, modelRequests, type Step, scriptModel } from "../support/fake-openai-client.ts";
import {
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  sendChat,
  useSharedFakeModelApp,
  viewportOptions,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedFakeModelApp();

/** On a phone the sidebar is a drawer: opened by the menu button. */
async function openSidebar(page: Page): Promise<void> {
  await page.locator("[data-testid=shell]").waitFor({ timeout: 15_000 });
  const menu = page.locator("[data-testid=menu-button]");
  if ((await menu.isVisible()) && (await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
  await page.locator("[data-testid=new-project]").waitFor({ state: "visible" });
}

/** Goes to an address inside the app as its links do (no reload). */
async function goTo(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, "", to);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);
}

/** The conversation the page shows now, once it is connected. */
async function openedConversation(page: Page): Promise<string> {
  const chat = page.locator("[data-testid=chat][data-conversation-id]");
  await chat.locator("[data-testid=connection-status][data-status=connected]").waitFor({
    state: "attached",
    timeout: 15_000,
  });
  return (await chat.getAttribute("data-conversation-id")) ?? "";
}

/** Opens a new conversation of the project through the API, as its page's button would, and waits for it. */
async function conversationIn(page: Page, projectId?: string): Promise<string> {
  const made = await apiFromPage<{ id: string }>(
    page,
    "POST",
    "/api/conversations",
    projectId ? { project_id: projectId } : {},
  );
  expect(made.status).toBe(201);
  await goTo(page, `/c/${made.body.id}`);
  expect(await openedConversation(page)).toBe(made.body.id);
  return made.body.id;
}

/** Sends a message the fake model answers with `steps`, waits for the turn, and gives the request it got first. */
async function ask(page: Page, conversationId: string, text: string, steps: Step[]): Promise<string> {
  const key = `pm-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await scriptModel(live.llm.url, key, steps);
  await sendChat(page, `${text} ${marker(key)}`);
  await page.locator("[data-role=agent][data-phase=final]").last().waitFor({ timeout: 30_000 });
  await waitTurnEnded(page, conversationId);
  const [first] = await modelRequests(live.llm.url, key);
  return JSON.stringify(first?.body ?? {});
}

const memories = async (page: Page) =>
  (await apiFromPage<{ memories: Memory[] }>(page, "GET", "/api/memories")).body.memories;

describe.each(DESKTOP_AND_PHONE)("on a $name", (viewport) => {
  const options = viewportOptions(viewport);

  it("starts the next conversation with the instructions saved in Settings", async () => {
    await asNewUser(live, `instructions-${viewport.name}`, options, async (page) => {
      await page.goto("/settings/personalization");
      await page.locator("[data-testid=instructions-about]").fill("I am a beekeeper in Ghent.");
      await page.locator("[data-testid=instructions-style]").fill("Answer in short bullet points.");
      await page.locator("[data-testid=instructions-save]").click();
      await expect
        .poll(async () => (await apiFromPage<{ about: string }>(page, "GET", "/api/settings/instructions")).body.about)
        .toBe("I am a beekeeper in Ghent.");

      const id = await conversationIn(page);
      const request = await ask(page, id, "When do bees swarm?", [{ text: "In spring." }]);
      expect(request).toContain("I am a beekeeper in Ghent.");
      expect(request).toContain("Answer in short bullet points.");
      expect(await page.locator("[data-testid=context-summary]").first().textContent()).toContain("your instructions");
    });
  });

  it("gives a project's instructions and file to its conversations, and not to one outside it", async () => {
    await asNewUser(live, `project-${viewport.name}`, options, async (page) => {
      await openSidebar(page);
      await page.locator("[data-testid=new-project]").click();
      await page.locator("[data-testid=new-project-name]").fill("Hive survey");
      await page.locator("[data-testid=new-project-save]").click();
      await page.locator("[data-testid=project-instructions]").waitFor({ timeout: 15_000 });
      await page.locator("[data-testid=project-instructions]").fill("Count frames per hive, never bees.");
      // A library entry it includes, named as the composer names one.
      const entry = { title: "Hive log", body: "Log each hive's weight on Sundays." };
      expect((await apiFromPage(page, "PUT", "/api/knowledge/hive-log", entry)).status).toBe(200);
      await page.locator("[data-testid=project-knowledge]").fill("#hive-log");
      await page.locator("[data-testid=project-save]").click();
      await page.locator("[data-testid=project-file-input]").setInputFiles({
        name: "hives.md",
        mimeType: "text/markdown",
        buffer: Buffer.from("# Hives\n\nHive 7 sits by the linden tree.\n"),
      });
      await page.locator("[data-testid=project-file]").filter({ hasText: "hives.md" }).waitFor({ timeout: 15_000 });
      // How its conversations run: a step limit and a tool switched off.
      await page.locator("[data-testid=project-max-steps]").fill("4");
      await page.locator("[data-testid=project-tools-off]").fill("web_fetch");
      await page.locator("[data-testid=project-defaults-save]").click();
      await page.locator("[data-testid=project-defaults-status]").waitFor({ timeout: 15_000 });
      const { projects } = (await apiFromPage<{ projects: Project[] }>(page, "GET", "/api/projects")).body;
      expect(projects).toEqual([
        expect.objectContaining({
          name: "Hive survey",
          instructions: "Count frames per hive, never bees.",
          knowledge: ["hive-log"],
          defaults: { agent: { maxIterations: 4 }, tools_off: ["web_fetch"], mcp_servers: null },
        }),
      ]);

      await page.locator("[data-testid=project-new-chat]").click();
      const inside = await openedConversation(page);
      const request = await ask(page, inside, "Plan the survey.", [{ text: "Start with hive 7." }]);
      expect(request).toContain("Count frames per hive, never bees.");
      expect(request).toContain("Hive 7 sits by the linden tree.");
      expect(request).toContain("Log each hive's weight on Sundays.");
      const tools = (JSON.parse(request).tools ?? []) as { function: { name: string } }[];
      expect(tools.map((t) => t.function.name)).not.toContain("web_fetch");
      const conversation = await apiFromPage<{ project_id?: string }>(page, "GET", `/api/conversations/${inside}`);
      expect(conversation.body.project_id).toBe(projects[0]?.id);

      const outside = await conversationIn(page);
      const other = await ask(page, outside, "Plan the survey.", [{ text: "Which survey?" }]);
      expect(other).not.toContain("Count frames per hive");
      expect(other).not.toContain("linden tree");
    });
  });

  it("remembers what the agent saved, shows it to edit, gives it to the same project only, and undoes it", async () => {
    await asNewUser(live, `memory-${viewport.name}`, options, async (page) => {
      const project = async (name: string) =>
        (await apiFromPage<Project>(page, "POST", "/api/projects", { name })).body;
      const [garden, work] = [await project("Garden"), await project("Work")];

      const first = await conversationIn(page, garden.id);
      await ask(page, first, "My roses are Albertine climbers.", [
        {
          tool_calls: [
            { name: "memory", arguments: { action: "save", text: "The user's roses are Albertine climbers." } },
          ],
        },
        { text: "I will remember that." },
      ]);
      const card = page.locator("[data-testid=memory-card]");
      await card.waitFor({ timeout: 15_000 });
      expect(await card.getAttribute("data-action")).toBe("save");
      expect(await card.textContent()).toContain("The user's roses are Albertine climbers.");
      const [saved] = await memories(page);
      expect(saved).toMatchObject({ project_id: garden.id, conversation_id: first });

      // Settings lists it, with where it came from; the user corrects it.
      await page.goto("/settings/personalization");
      const row = page.locator(`[data-testid=memory-row][data-memory-id=${JSON.stringify(saved?.id)}]`);
      await row.waitFor({ timeout: 15_000 });
      expect(await row.textContent()).toContain("Garden");
      expect(await row.locator(`a[href="/c/${first}"]`).count()).toBe(1);
      await row.locator("[data-testid=memory-edit]").click();
      await row.locator("[data-testid=memory-text]").fill("The user's roses are Albertine and Paul's Himalayan Musk.");
      await row.locator("[data-testid=memory-save]").click();
      await expect
        .poll(async () => (await memories(page))[0]?.text)
        .toBe("The user's roses are Albertine and Paul's Himalayan Musk.");

      const same = await conversationIn(page, garden.id);
      expect(await ask(page, same, "What should I prune?", [{ text: "The climbers." }])).toContain("Himalayan Musk");
      const elsewhere = await conversationIn(page, work.id);
      expect(await ask(page, elsewhere, "What should I prune?", [{ text: "Nothing here." }])).not.toContain("roses");

      // Undo on the card in the first conversation forgets it.
      await goTo(page, `/c/${first}`);
      await openedConversation(page);
      await page.locator("[data-testid=memory-undo]").click();
      await expect.poll(async () => (await memories(page)).length).toBe(0);
    });
  });

  it("saves nothing with memory off", async () => {
    await asNewUser(live, `memory-off-${viewport.name}`, options, async (page) => {
      await page.goto("/settings/personalization");
      const toggle = page.locator("[data-testid=memory-switch]");
      await toggle.waitFor({ timeout: 15_000 });
      await toggle.click();
      await expect
        .poll(
          async () => (await apiFromPage<{ memory: boolean }>(page, "GET", "/api/settings/instructions")).body.memory,
        )
        .toBe(false);
      const id = await conversationIn(page);
      const request = await ask(page, id, "Remember that I like figs.", [
        { tool_calls: [{ name: "memory", arguments: { action: "save", text: "The user likes figs." } }] },
        { text: "Noted." },
      ]);
      expect(JSON.parse(request).tools?.map((t: { function: { name: string } }) => t.function.name)).not.toContain(
        "memory",
      );
      expect(await memories(page)).toEqual([]);
    });
  });
});
