// Types of scripts/lib/provenance.mjs, for the TypeScript tests.
export interface ProvenanceEntry {
  pointer: string;
  place: string;
  text: string;
}
export interface ProvenanceKind {
  key: "x-observed" | "x-not-shown" | "x-convention";
  heading: string;
  column: string;
  lead: string;
}
export declare const PROVENANCE_KINDS: readonly ProvenanceKind[];
export declare function collectMarkers(doc: Record<string, unknown>, key: string): ProvenanceEntry[];
export declare function collectProvenance(doc: Record<string, unknown>): Array<ProvenanceKind & { entries: ProvenanceEntry[] }>;
