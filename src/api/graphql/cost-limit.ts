// A GraphQL query's cost before it runs: fields and objects (aliases each count) times the list sizes they fan out over.
import {
  type DocumentNode, type FragmentDefinitionNode, getNamedType, type GraphQLNamedType, type GraphQLSchema, isListType, isNonNullType,
  isObjectType, type GraphQLOutputType, Kind, type OperationDefinitionNode, type SelectionSetNode,
} from 'graphql';

/**
 * What an object of a list costs beyond its fields: a room's node is built from its whole DTO whatever is selected
 * (measured ~45 µs a room on the 2-vCPU development machine, against about 1 µs a field).
 */
export const OBJECT_COST = 50;

/**
 * The most a query may cost: about 200 ms of the main thread at worst (4,000 bare room objects). brec's Web UI
 * list (~120 fields a room) costs about 170 a room, so 1,000 rooms fit. 3,300 aliases of `rooms { objectId }` over
 * 300 rooms cost about 50,000,000 (a 51 MB answer that blocked the main thread for 11 s) and are refused.
 */
export const MAX_QUERY_COST = 200_000;
/** An answer larger than this is replaced by an error (a backstop: the cost limit normally keeps answers far smaller). */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

const isList = (t: GraphQLOutputType): boolean => isListType(isNonNullType(t) ? t.ofType : t);

/** The cost of `operation`; every list is assumed as long as `listSize` (the number of rooms). Stops counting past `limit`. */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, listSize: number, limit = MAX_QUERY_COST): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const n = Math.max(1, listSize);
  const walk = (set: SelectionSetNode, type: GraphQLNamedType | null | undefined, depth: number): number => {
    if (depth > 32) return limit + 1; // deeper than any schema path: fragments spread into themselves
    let cost = 0;
    for (const sel of set.selections) {
      if (cost > limit) break;
      if (sel.kind === Kind.FIELD) {
        const def = type && isObjectType(type) ? type.getFields()[sel.name.value] : undefined;
        const named = def ? getNamedType(def.type) : undefined;
        const inner = sel.selectionSet && named ? walk(sel.selectionSet, named, depth + 1) : 0;
        // A list of objects: each element is built whole (OBJECT_COST) before its fields are picked.
        cost += 1 + (def && isList(def.type) ? n * (inner + (named && isObjectType(named) ? OBJECT_COST : 0)) : inner);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        cost += walk(sel.selectionSet, sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type, depth + 1);
      } else {
        const f = fragments.get(sel.name.value);
        if (f) cost += walk(f.selectionSet, schema.getType(f.typeCondition.name.value), depth + 1);
      }
    }
    return cost;
  };
  return walk(operation.selectionSet, root, 0);
}
