// Projects and memories over docs/protocol.md "Projects, instructions and memory", for the pages that
// show them (loaded with them, never in the first download): the requests, and one signal that a
// project changed, so the sidebar's list and an open project page read it again.
import { z } from "zod";
import { AttachmentSchema, ConversationSchema, SearchResponseSchema } from "../../../protocol";
import {
  type Instructions,
  type InstructionsPatch,
  InstructionsSchema,
  type Memory,
  MemoryListSchema,
  MemorySchema,
  type Project,
  ProjectListSchema,
  ProjectSchema,
  type UpdateProject,
} from "../../../protocol/projects";
import { requestEmpty, requestJson } from "./api";

const PROJECTS_CHANGED = "oracle:projects-changed";

/** Tells every list of projects (the sidebar, a project's page) to read them again. */
export function projectsChanged(): void {
  dispatchEvent(new Event(PROJECTS_CHANGED));
}

/** Runs `listener` whenever a project changed; returns its removal. */
export function onProjectsChanged(listener: () => void): () => void {
  addEventListener(PROJECTS_CHANGED, listener);
  return () => removeEventListener(PROJECTS_CHANGED, listener);
}

const path = (id: string) => `/api/projects/${encodeURIComponent(id)}`;

export const listProjects = () => requestJson("/api/projects", ProjectListSchema);
export const readProject = (id: string) => requestJson(path(id), ProjectSchema);
export const createProject = (name: string) => requestJson("/api/projects", ProjectSchema, "POST", { name });
export const updateProject = (id: string, patch: UpdateProject) => requestJson(path(id), ProjectSchema, "PATCH", patch);
export const deleteProject = (id: string) => requestEmpty(path(id), "DELETE");
export const addProjectFile = (id: string, fileId: string) =>
  requestJson(`${path(id)}/files`, AttachmentSchema, "POST", { file_id: fileId });
export const removeProjectFile = (id: string, fileId: string) =>
  requestEmpty(`${path(id)}/files/${encodeURIComponent(fileId)}`, "DELETE");

/** The user's conversations in the project, newest first. */
export async function projectConversations(id: string) {
  const listed = await requestJson("/api/conversations", z.array(ConversationSchema));
  return listed.ok ? { ok: true as const, data: listed.data.filter((c) => c.project_id === id) } : listed;
}

export const searchProject = (id: string, q: string) =>
  requestJson(`/api/search?q=${encodeURIComponent(q)}&project=${encodeURIComponent(id)}`, SearchResponseSchema);

/** A new conversation in the project (with its model): its id. */
export const newProjectConversation = (id: string) =>
  requestJson("/api/conversations", ConversationSchema, "POST", { project_id: id });

export const readConversation = (id: string) =>
  requestJson(`/api/conversations/${encodeURIComponent(id)}`, ConversationSchema);

/** Moves a conversation into a project, or with null out of any. */
export const moveConversation = (conversationId: string, projectId: string | null) =>
  requestJson(`/api/conversations/${encodeURIComponent(conversationId)}`, ConversationSchema, "PATCH", {
    project_id: projectId,
  });

export const readInstructions = () => requestJson("/api/settings/instructions", InstructionsSchema);
export const saveInstructions = (patch: InstructionsPatch) =>
  requestJson<Instructions>("/api/settings/instructions", InstructionsSchema, "PUT", patch);

export const listMemories = () => requestJson("/api/memories", MemoryListSchema);
export const addMemory = (text: string, projectId: string | null) =>
  requestJson("/api/memories", MemorySchema, "POST", { text, project_id: projectId });
export const editMemory = (id: string, text: string) =>
  requestJson(`/api/memories/${encodeURIComponent(id)}`, MemorySchema, "PATCH", { text });
export const forgetMemory = (id: string) => requestEmpty(`/api/memories/${encodeURIComponent(id)}`, "DELETE");

export type { Memory, Project };
