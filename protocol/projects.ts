// Projects, custom instructions and memory (docs/protocol.md "Projects, instructions and memory"): what
// the agent is told about the user and their work at the start of each conversation, in its stable prefix.
// Not exported by protocol/index.ts: imported from here, so the chat's first download (which takes the
// index) carries none of it; the pages that use it load it with them.
import { z } from "zod";
import { type AgentConfigPatch, AgentConfigPatchSchema } from "./agent-config";
import { AttachmentSchema } from "./files";
import { SLUG_PATTERN } from "./library";
import { ModelRefSchema } from "./models";
import { MAX_NOTE_PATH, NOTE_PATH_CHARS } from "./notes";

export const MAX_INSTRUCTIONS_CHARS = 4000;
export const MAX_MEMORY_CHARS = 500;
/** The memories one conversation starts with, newest first; past this the oldest are left out (and said so). */
export const MAX_APPLIED_MEMORIES = 100;
/** At most this many projects per user, and memories per user (409 past it: delete some first). */
export const MAX_PROJECTS = 100;
export const MAX_MEMORIES = 1000;

const instructionsText = z
  .string()
  .max(MAX_INSTRUCTIONS_CHARS, `at most ${MAX_INSTRUCTIONS_CHARS.toLocaleString("en")} characters`);

/** `GET /api/settings/instructions`: the user's custom instructions and their memory switch. */
export const InstructionsSchema = z.object({
  /** What the agent should know about the user. */
  about: z.string(),
  /** How the agent should answer. */
  style: z.string(),
  /** The agent may remember things (the memory tool) and new conversations start with what it remembered. */
  memory: z.boolean(),
});
export type Instructions = z.infer<typeof InstructionsSchema>;

/** `PUT /api/settings/instructions`: any subset. A change applies from the next turn, with a notice. */
export const InstructionsPatchSchema = z.strictObject({
  about: instructionsText.optional(),
  style: instructionsText.optional(),
  memory: z.boolean().optional(),
});
export type InstructionsPatch = z.infer<typeof InstructionsPatchSchema>;

/** Tool names switched off in a project (built-in tools, or `server__tool` of an MCP server). */
const toolNames = z.array(z.string().min(1).max(200)).max(100);

/**
 * What a project's conversations run with, over the user's own settings: limits and approach (any
 * subset of AgentConfig), the tools switched off, and which MCP servers are on (null: the user's).
 */
export const ProjectDefaultsSchema = z.object({
  agent: AgentConfigPatchSchema.default({}),
  tools_off: toolNames.default([]),
  mcp_servers: z.array(z.string().min(1).max(100)).max(100).nullable().default(null),
});
export type ProjectDefaults = z.infer<typeof ProjectDefaultsSchema>;
export const NO_PROJECT_DEFAULTS: ProjectDefaults = { agent: {} as AgentConfigPatch, tools_off: [], mcp_servers: null };

/** Library entries (knowledge, by slug) a project's conversations start with. */
const includedKnowledge = z
  .array(z.string().regex(SLUG_PATTERN, "a knowledge entry's slug: a-z first, then a-z, 0-9 and -"))
  .max(20, "at most 20 entries");
/** Note folders a project's conversations start with the listing of. */
const includedNotes = z
  .array(
    z
      .string()
      .trim()
      .min(1, "a note folder is empty")
      .max(MAX_NOTE_PATH)
      .regex(NOTE_PATH_CHARS, "a note folder: letters, digits, spaces and _ . / -")
      .refine((path) => !path.includes(".."), "a note folder must not contain .."),
  )
  .max(10, "at most 10 folders");

const projectName = z.string().trim().min(1, "the name is empty").max(100, "at most 100 characters");

/** A project: a name, its instructions, its files, its memory switch and its default model. */
export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  instructions: z.string(),
  /** Its conversations may remember (project memories) and start with the memories; off: neither. */
  memory: z.boolean(),
  /** The model its new conversations start with; absent: the user's default. */
  model: ModelRefSchema.optional(),
  /** Its limits and approach, the tools it switches off and the MCP servers it uses. */
  defaults: ProjectDefaultsSchema,
  created_at: z.string(),
  updated_at: z.string(),
  /** How many conversations it holds. */
  conversations: z.number().int().nonnegative(),
  /** Its files, which its conversations' agent reads like attachments. */
  files: z.array(AttachmentSchema),
  /** The library's knowledge entries (slugs) and the note folders its conversations start with. */
  knowledge: z.array(z.string()),
  notes: z.array(z.string()),
});
export type Project = z.infer<typeof ProjectSchema>;

export const ProjectListSchema = z.object({ projects: z.array(ProjectSchema) });

/** `POST /api/projects`. */
export const CreateProjectSchema = z.strictObject({
  name: projectName,
  instructions: instructionsText.optional(),
  memory: z.boolean().optional(),
  model: ModelRefSchema.nullable().optional(),
  defaults: ProjectDefaultsSchema.optional(),
  knowledge: includedKnowledge.optional(),
  notes: includedNotes.optional(),
});
export type CreateProject = z.infer<typeof CreateProjectSchema>;

/** `PATCH /api/projects/:id`: any subset, at least one. */
export const UpdateProjectSchema = CreateProjectSchema.partial().refine((b) => Object.keys(b).length > 0, {
  message: "expected name, instructions, memory, model, defaults, knowledge or notes",
});
export type UpdateProject = z.infer<typeof UpdateProjectSchema>;

/** `POST /api/projects/:id/files`: a file uploaded with `POST /api/files` and not sent in a message yet. */
export const AddProjectFileSchema = z.strictObject({ file_id: z.string().min(1).max(100) });

/** Where a memory applies: every conversation of the user's, or only the project's. */
export const MemoryScopeSchema = z.enum(["user", "project"]);
export type MemoryScope = z.infer<typeof MemoryScopeSchema>;

const memoryText = z
  .string()
  .trim()
  .min(1, "the memory is empty")
  .max(MAX_MEMORY_CHARS, `at most ${MAX_MEMORY_CHARS} characters`);

/** One thing the agent remembers, with where it came from. */
export const MemorySchema = z.object({
  id: z.string(),
  text: z.string(),
  /** The project it belongs to; null: the user's, in every conversation outside a project switched off. */
  project_id: z.string().nullable(),
  /** The conversation and message it came from; null when the user wrote it in Settings. */
  conversation_id: z.string().nullable(),
  seq: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Memory = z.infer<typeof MemorySchema>;

export const MemoryListSchema = z.object({ memories: z.array(MemorySchema) });

/** `POST /api/memories`: a memory the user writes (or one restored by an undo). */
export const CreateMemorySchema = z.strictObject({
  text: memoryText,
  project_id: z.string().min(1).max(100).nullable().optional(),
});
/** `PATCH /api/memories/:id`. */
export const UpdateMemorySchema = z.strictObject({ text: memoryText });

/** The memory tool's arguments, as the model sends them. */
export const MemoryToolArgsSchema = z.object({
  action: z.enum(["save", "update", "forget"]),
  text: memoryText.optional().describe("save, update: one short fact, third person"),
  id: z.string().max(100).optional().describe("update, forget: the memory's id"),
  scope: MemoryScopeSchema.optional().describe("save: user (true everywhere) or project (default in a project)"),
});

/** The memory tool's result: the chat shows it as "Memory updated" with an undo. */
export const MemoryToolResultSchema = z.object({
  action: z.enum(["save", "update", "forget"]),
  memory: MemorySchema,
  /** For update: the text before. */
  previous: z.string().optional(),
});
export type MemoryToolResult = z.infer<typeof MemoryToolResultSchema>;

/**
 * `oracle-export/projects.json`: the custom instructions, each project (its conversations named by the ids
 * they had in the archive; its files are under `files/` with the rest) and every memory (its project and
 * conversation by archive id).
 */
export const ExportedProjectsSchema = z.object({
  instructions: InstructionsSchema.extend({
    about: z.string().max(MAX_INSTRUCTIONS_CHARS),
    style: z.string().max(MAX_INSTRUCTIONS_CHARS),
  }),
  projects: z
    .array(
      z.object({
        id: z.string().max(100),
        name: z.string().trim().min(1).max(100),
        instructions: z.string().max(MAX_INSTRUCTIONS_CHARS),
        memory: z.boolean(),
        defaults: ProjectDefaultsSchema.catch(NO_PROJECT_DEFAULTS),
        knowledge: includedKnowledge.catch([]).default([]),
        notes: includedNotes.catch([]).default([]),
        conversations: z.array(z.string().max(100)).max(10_000),
        created_at: z.iso.datetime(),
        updated_at: z.iso.datetime(),
      }),
    )
    .max(1000),
  memories: z
    .array(
      z.object({
        text: z.string().trim().min(1).max(MAX_MEMORY_CHARS),
        project_id: z.string().max(100).nullable(),
        conversation_id: z.string().max(100).nullable(),
        created_at: z.iso.datetime(),
        updated_at: z.iso.datetime(),
      }),
    )
    .max(10_000),
});
export type ExportedProjects = z.infer<typeof ExportedProjectsSchema>;

/** What a project includes from the library and the vault (stored as one JSON value). */
export const ProjectIncludesSchema = z.object({
  knowledge: includedKnowledge.catch([]).default([]),
  notes: includedNotes.catch([]).default([]),
});
export type ProjectIncludes = z.infer<typeof ProjectIncludesSchema>;
