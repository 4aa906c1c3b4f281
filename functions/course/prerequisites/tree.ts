// The tree model lives beside the catalog model, which stores source-given trees (UVic's Kuali rules).
export * from '../../catalog/requirement-tree.js';
