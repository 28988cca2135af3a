// The documented response a status of an operation resolves to (its headers and media types, `$ref`s followed), and
// the documented media type a response's Content-Type matches. Both are resolved once and cached, bounded: the
// validator runs on every response a client receives.
import {
  deref,
  isObject,
  type JsonObject,
  type OpenApiDocument,
  type Operation,
  responseKeyFor,
} from "../openapi/document.js";
import { documentedHeaders, type ResolvedHeader } from "./headers.js";
import type { CompiledPair } from "./schemas.js";

export interface ResolvedContent {
  mediaType: string;
  schema: unknown;
  cacheKey: string;
  /** Compiled on first use. */
  compiled?: CompiledPair;
}

export interface ResolvedResponse {
  headers: ResolvedHeader[];
  content: ResolvedContent[];
  /** matchContent results per response media type (bounded). */
  contentByMediaType: Map<string, ResolvedContent | null>;
}

/** What a status of an operation resolves to (cached per operation and status). */
interface StatusResolution {
  responseKey: string | undefined;
  resolved: ResolvedResponse | null;
}

/** How many entries a cache keyed by what a response sent (status, media type) holds before it starts over. */
export const MEMO_LIMIT = 256;

/** The entry of `content` for a media type: the exact type, else its `type/*` range, else the catch-all. */
export function matchContent<T extends { mediaType: string }>(content: T[], mediaType: string): T | undefined {
  for (const entry of content) if (entry.mediaType.toLowerCase() === mediaType) return entry;
  const wildcard = `${mediaType.split("/")[0]}/*`;
  for (const entry of content) if (entry.mediaType.toLowerCase() === wildcard) return entry;
  for (const entry of content) if (entry.mediaType === "*/*") return entry;
  return undefined;
}

/** The documented content of `resolved` for a response's media type, memoized per media type. */
export function contentFor(resolved: ResolvedResponse, mediaType: string): ResolvedContent | undefined {
  const memo = resolved.contentByMediaType;
  let found = memo.get(mediaType);
  if (found === undefined) {
    found = matchContent(resolved.content, mediaType) ?? null;
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(mediaType, found);
  }
  return found ?? undefined;
}

function documentedContent(response: JsonObject, cacheKey: string): ResolvedContent[] {
  return Object.entries(isObject(response.content) ? response.content : {}).map(([mediaType, media]) => ({
    mediaType,
    schema: isObject(media) ? media.schema : undefined,
    cacheKey: `${cacheKey} ${mediaType}`,
  }));
}

/** The documented responses of a document's operations, resolved on first use. */
export class DocumentedResponses {
  private readonly byResponseKey = new Map<string, ResolvedResponse | null>();
  private readonly byStatus = new Map<Operation, Map<number, StatusResolution>>();

  constructor(private readonly document: OpenApiDocument) {}

  /** The documented response for a status of an operation, memoized per operation and status. */
  forStatus(entry: Operation, status: number): StatusResolution {
    let statuses = this.byStatus.get(entry);
    if (!statuses) {
      statuses = new Map();
      this.byStatus.set(entry, statuses);
    }
    let resolution = statuses.get(status);
    if (!resolution) {
      const responses = isObject(entry.operation.responses) ? entry.operation.responses : {};
      const responseKey = responseKeyFor(responses, status);
      resolution = { responseKey, resolved: responseKey === undefined ? null : this.resolve(entry, responseKey) };
      if (statuses.size >= MEMO_LIMIT) statuses.clear();
      statuses.set(status, resolution);
    }
    return resolution;
  }

  private resolve(entry: Operation, key: string): ResolvedResponse | null {
    const cacheKey = `${entry.key} ${key}`;
    const cached = this.byResponseKey.get(cacheKey);
    if (cached !== undefined) return cached;
    const response = deref(this.document, (entry.operation.responses as JsonObject)[key]);
    const resolved = response
      ? {
          headers: documentedHeaders(this.document, response, cacheKey),
          content: documentedContent(response, cacheKey),
          contentByMediaType: new Map(),
        }
      : null;
    this.byResponseKey.set(cacheKey, resolved);
    return resolved;
  }
}
