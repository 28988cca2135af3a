// Types of scripts/lib/code-samples.mjs, for the TypeScript tests.
import type { OperationEntry } from "./openapi-walk.mjs";
export type { OperationEntry } from "./openapi-walk.mjs";
export { listOperations, resolveRef } from "./openapi-walk.mjs";
type Doc = Record<string, any>;
export interface CodeSample {
  operationId: string | undefined;
  method: string;
  path: string;
  source: string;
}
export declare const PACKAGE_NAME: string;
export declare const SAMPLE_LANG: string;
export declare function toTsLiteral(value: unknown, indent?: string): string;
export declare function requestInitOf(doc: Doc, entry: OperationEntry): Record<string, any> | undefined;
export declare function codeSampleFor(doc: Doc, entry: OperationEntry): string;
export declare function generateCodeSamples(doc: Doc): CodeSample[];
export declare function withCodeSamples<T extends Doc>(doc: T): T;
