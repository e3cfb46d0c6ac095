// Replays the corpus through the loop's own detector: after each step's calls, the loop-detection
// warning the loop would give (agent/turn/), and before each step the stop conditions that end a stuck
// turn (no_progress, error_limit). Reports precision, recall and false-positive rate for the warning
// and for the stop, against seed 001 SC-007 (95 % accuracy, false positives under 5 %).
import { loopWarning } from "../../agent/loop-detection";
import { type AgentState, canonicalJson, createState, recordAction, resultKey } from "../../agent/state";
import { errorLimit, noProgress } from "../../agent/termination";
import { DEFAULT_AGENT_CONFIG } from "../../protocol";
import { CORPUS, type CorpusSequence } from "./corpus";

export interface Verdict {
  id: string;
  label: CorpusSequence["label"];
  kind: string;
  warned: boolean;
  stopped: boolean;
}

export function judge(sequence: CorpusSequence): Verdict {
  const config = { ...DEFAULT_AGENT_CONFIG, maxIterations: 50 };
  let state: AgentState = createState(config, 0);
  let warned = false;
  let stopped = false;
  for (const step of sequence.steps) {
    if (noProgress(state, config) || errorLimit(state, config)) {
      stopped = true;
      break;
    }
    for (const call of step)
      state = recordAction(state, {
        tool: call.tool,
        argsKey: canonicalJson(call.args),
        ok: call.ok,
        ...(call.ok ? { resultKey: resultKey(call.result) } : { error: call.error }),
      });
    const warning = loopWarning(state);
    if (warning) {
      warned = true;
      state = { ...state, loopWarnings: [...state.loopWarnings, warning.key] };
    }
  }
  // The stop conditions are checked once more before the step that would follow.
  stopped ||= noProgress(state, config) !== undefined || errorLimit(state, config) !== undefined;
  return { id: sequence.id, label: sequence.label, kind: sequence.kind, warned, stopped };
}

export interface Scores {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  precision: number;
  recall: number;
  falsePositiveRate: number;
}

function score(verdicts: readonly Verdict[], flagged: (v: Verdict) => boolean): Scores {
  const count = (label: Verdict["label"], hit: boolean) =>
    verdicts.filter((v) => v.label === label && flagged(v) === hit).length;
  const tp = count("stuck", true);
  const fn = count("stuck", false);
  const fp = count("progressing", true);
  const tn = count("progressing", false);
  return {
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    trueNegatives: tn,
    precision: tp / Math.max(1, tp + fp),
    recall: tp / Math.max(1, tp + fn),
    falsePositiveRate: fp / Math.max(1, fp + tn),
  };
}

export interface CorpusResult {
  sequences: number;
  stuck: number;
  warning: Scores;
  stop: Scores;
  verdicts: Verdict[];
}

export function evaluateCorpus(corpus: readonly CorpusSequence[] = CORPUS): CorpusResult {
  const verdicts = corpus.map(judge);
  return {
    sequences: verdicts.length,
    stuck: verdicts.filter((v) => v.label === "stuck").length,
    warning: score(verdicts, (v) => v.warned),
    stop: score(verdicts, (v) => v.stopped),
    verdicts,
  };
}
