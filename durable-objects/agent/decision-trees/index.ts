// Importing this module registers the trees that ship with Oracle.
import "./default-tree";
import "./roa-tree";

export type { DecisionTree } from "./decision-tree";
export { decisionTreeNames, findDecisionTree, registerDecisionTree } from "./registry";
