// Decision trees by name. A skill brings its own tree by calling registerDecisionTree (or using
// @decisionTree on its class); the loop and the settings validation read this registry only.
import type { DecisionTree } from "./decision-tree";

const trees = new Map<string, DecisionTree>();

export function registerDecisionTree(tree: DecisionTree): DecisionTree {
  if (trees.has(tree.name)) throw new Error(`decision tree "${tree.name}" is registered twice`);
  trees.set(tree.name, tree);
  return tree;
}

/** Class decorator form: `@decisionTree() class MyTree implements DecisionTree { … }`. */
export function decisionTree() {
  return <T extends new () => DecisionTree>(target: T, _context?: unknown): T => {
    registerDecisionTree(new target());
    return target;
  };
}

export function findDecisionTree(name: string): DecisionTree | undefined {
  return trees.get(name);
}

export function decisionTreeNames(): string[] {
  return [...trees.keys()];
}
