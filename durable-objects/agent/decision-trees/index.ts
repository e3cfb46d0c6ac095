// Importing this module registers the trees that ship with Oracle.
import "./default-tree";
import "./roa-tree";

export type { DecisionTree } from "./decision-tree";
export { decisionTree, decisionTreeNames, findDecisionTree, registerDecisionTree } from "./registry";
