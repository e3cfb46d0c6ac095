// The agent loop, as the seed tells it: while the tree says go on, run the step's phases (build the
// request, call the model, decide, run the tools), then finish with the answer and why the turn ended.
// Everything the model reads comes from the persisted log (context/), so a replay sends the same bytes.
import { decide } from "./decide";
import { finishTurn } from "./finish";
import type { TurnIO } from "./io";
import { callModelPhase } from "./model-call";
import { resumeTurn } from "./resume";
import { runStepTools } from "./step-tools";
import { Turn, type TurnOutcome, type TurnSetup } from "./turn";
import { warnBudgets } from "./warnings";

export type { FramePort, TurnIO } from "./io";
export type { TurnOutcome, TurnSetup } from "./turn";

export async function runTurn(io: TurnIO, setup: TurnSetup): Promise<TurnOutcome> {
  const turn = new Turn(io, setup);
  announce(turn);
  // A turn cut short by a restart first gives its open calls their results, then goes on.
  if (setup.resume && !(await resumeTurn(turn, setup.resume))) return finishTurn(turn);
  while (nextStep(turn)) {
    await io.flush("turn_start");
    if (!(await runStep(turn))) break;
  }
  return finishTurn(turn);
}

/** One step: each phase the tree plans. False when the turn is over (an answer, a failure, no answer in time). */
async function runStep(turn: Turn): Promise<boolean> {
  for (const plan of turn.tree.phases(turn.state, turn.toolNames)) {
    const state = turn.sync();
    // Mid-step, only what makes another model call pointless ends the step early.
    if (state.cancelled || state.timedOut || turn.overBudget) return true;
    const result = await callModelPhase(turn, plan);
    if (!result) return false;
    if (await decide(turn, plan, result)) return false;
    if (result.toolCalls.length && !(await runStepTools(turn, result.toolCalls))) return false;
  }
  return true;
}

/** Whether the tree goes on; if so, the step begins (its number, its frame, the budget warnings). */
function nextStep(turn: Turn): boolean {
  if (!turn.tree.shouldContinue(turn.sync()).continue) return false;
  turn.beginStep();
  turn.send({ type: "agent_update", update_type: "agent_turn_start", step: turn.state.step });
  turn.state = warnBudgets(turn.state, turn.io.emit);
  return true;
}

function announce(turn: Turn): void {
  const { tree, config } = turn;
  turn.send({
    type: "agent_update",
    update_type: "agent_start",
    max_steps: config.maxIterations,
    decision_tree: tree.name,
  });
  turn.io.emit({
    type: "turn.start",
    severity: "debug",
    source: "Turn Control",
    payload: { decision_tree: tree.name, max_steps: config.maxIterations },
  });
}
