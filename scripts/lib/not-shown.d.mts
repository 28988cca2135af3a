// Types of scripts/lib/not-shown.mjs, for the TypeScript tests.
export declare const NOT_SHOWN_HEADING: string;
export declare function collectNotShown(doc: Record<string, unknown>): { pointer: string; place: string; text: string }[];
