// A GraphQL query's cost before it runs: fields (aliases each count) times the list sizes they fan out over.
import {
  type DocumentNode, type FragmentDefinitionNode, getNamedType, type GraphQLNamedType, type GraphQLSchema, isListType, isNonNullType,
  isObjectType, type GraphQLOutputType, Kind, type OperationDefinitionNode, type SelectionSetNode,
} from 'graphql';

/**
 * Fields an answer may hold. The Web UI's full room list costs about 120 per room (36,000 at 300 rooms); 3,300
 * aliases of `rooms { objectId }` over 300 rooms cost about 1,000,000 (a 51 MB answer that blocked the main
 * thread for 11 s) and are refused.
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
        const inner = sel.selectionSet && def ? walk(sel.selectionSet, getNamedType(def.type), depth + 1) : 0;
        cost += 1 + (def && isList(def.type) ? n : 1) * inner;
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
