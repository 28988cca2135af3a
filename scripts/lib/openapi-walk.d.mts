// Types of scripts/lib/openapi-walk.mjs, for the TypeScript tests.
type Doc = Record<string, any>;
export interface OperationEntry {
  path: string;
  method: string;
  operation: Record<string, any>;
  pathItem: Record<string, any>;
}
export declare function resolveRef(doc: Doc, value: unknown): any;
export declare function listOperations(doc: Doc): OperationEntry[];
