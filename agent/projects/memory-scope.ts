// Where the memory tool writes (docs/protocol.md "Projects, instructions and memory"): the host gives it
// only where memory is on, for the user and for the conversation's project.

export interface MemoryScope {
  /** The conversation's project: its memories are the only project memories the tool reaches. */
  projectId: string | null;
  /** The user message the turn answers: where a saved memory came from. */
  sourceSeq(): number | null;
}
