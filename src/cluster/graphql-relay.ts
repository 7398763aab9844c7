// Cluster mode's GraphQL: a room mutation sent to a node that does not record the room is relayed to its owner, as REST is.
import type { Context } from 'hono';

/** Mutations that act on one existing room (addRoom/removeRoom's shared rows are handled by the resolvers). */
const ROOM_MUTATIONS = new Set(['removeRoom', 'refreshRoomInfo', 'startRecording', 'stopRecording', 'splitRecordingOutput', 'setRoomConfig']);

/**
 * The room (`objectId` or `roomId`, as text) a POSTed GraphQL request's only mutation targets; null for queries, for
 * requests that do not parse (the engine answers those), and for several mutations in one request (run where sent).
 */
export async function graphqlMutationTarget(c: Context): Promise<string | null> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  let query: unknown;
  let variables: Record<string, unknown> = {};
  let operationName: string | undefined;
  try {
    const text = await c.req.text();
    if (type === 'application/graphql') query = text;
    else if (type === 'application/json') {
      const body = JSON.parse(text) as { query?: unknown; variables?: unknown; operationName?: unknown };
      query = body.query;
      if (body.variables && typeof body.variables === 'object') variables = body.variables as Record<string, unknown>;
      if (typeof body.operationName === 'string') operationName = body.operationName;
    }
    if (typeof query !== 'string') return null;
    const { getOperationAST, Kind, parse } = await import('graphql');
    const op = getOperationAST(parse(query, { maxTokens: 20_000 }), operationName);
    if (op?.operation !== 'mutation' || op.selectionSet.selections.length !== 1) return null;
    const field = op.selectionSet.selections[0]!;
    if (field.kind !== Kind.FIELD || !ROOM_MUTATIONS.has(field.name.value)) return null;
    const arg = (name: string): unknown => {
      const v = field.arguments?.find((a) => a.name.value === name)?.value;
      if (!v) return undefined;
      if (v.kind === Kind.VARIABLE) return variables[v.name.value];
      if (v.kind === Kind.INT || v.kind === Kind.STRING) return v.value;
      return undefined;
    };
    const ref = arg('objectId') ?? arg('roomId');
    return ref === undefined || ref === null ? null : String(ref);
  } catch {
    return null;
  }
}
