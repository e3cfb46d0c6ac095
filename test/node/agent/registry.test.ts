import { describe, expect, it } from "vitest";
import { baseTree } from "../../../agent/decision-trees/base-tree";
import type { DecisionTree } from "../../../agent/decision-trees/decision-tree";
import { defaultTree } from "../../../agent/decision-trees/default-tree";
import { decisionTreeNames, findDecisionTree, registerDecisionTree } from "../../../agent/decision-trees/index";
import { decisionTree } from "../../../agent/decision-trees/registry";
import { roaTree } from "../../../agent/decision-trees/roa-tree";

const tree = (name: string): DecisionTree => ({
  ...baseTree,
  name,
  description: `test tree ${name}`,
  phases: () => [{ phase: "act", tools: false }],
  onPhaseResult: (state, r) => ({ state, display: r.text }),
});

describe("decision tree registry", () => {
  it("holds the trees that ship with Oracle", () => {
    expect(findDecisionTree("default")).toBe(defaultTree);
    expect(findDecisionTree("roa")).toBe(roaTree);
    expect(decisionTreeNames()).toEqual(expect.arrayContaining(["default", "roa"]));
    expect(findDecisionTree("no-such-tree")).toBeUndefined();
  });

  it("registers a skill's tree and finds it by name", () => {
    const t = tree("registry-test-a");
    expect(registerDecisionTree(t)).toBe(t);
    expect(findDecisionTree("registry-test-a")).toBe(t);
    expect(decisionTreeNames()).toContain("registry-test-a");
  });

  it("refuses a second tree under a taken name and keeps the first", () => {
    const first = registerDecisionTree(tree("registry-test-b"));
    expect(() => registerDecisionTree(tree("registry-test-b"))).toThrow(
      'decision tree "registry-test-b" is registered twice',
    );
    expect(() => registerDecisionTree(tree("default"))).toThrow(/registered twice/);
    expect(findDecisionTree("registry-test-b")).toBe(first);
    expect(findDecisionTree("default")).toBe(defaultTree);
  });

  it("registers an instance of a class through decisionTree() (FR-014), returning the class", () => {
    class ResearchTree implements DecisionTree {
      readonly name = "registry-test-research";
      readonly description = "a skill's tree";
      getConfig = baseTree.getConfig;
      shouldContinue = baseTree.shouldContinue;
      onTurnStart = baseTree.onTurnStart;
      onToolResult = baseTree.onToolResult;
      phases = () => [{ phase: "reason" as const, tools: false }];
      onPhaseResult: DecisionTree["onPhaseResult"] = (state, r) => ({ state, display: r.text });
    }
    const decorated = decisionTree()(ResearchTree);
    expect(decorated).toBe(ResearchTree);
    const found = findDecisionTree("registry-test-research");
    expect(found).toBeInstanceOf(ResearchTree);
    expect(() => decisionTree()(ResearchTree)).toThrow(/registered twice/);
  });
});
