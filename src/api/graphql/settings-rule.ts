// The cross-origin policy for GraphQL: settings fields (global config, room overrides, config mutations) are refused
// to an untrusted origin, as the REST settings paths are; room lists and stats stay readable (the WebUI's polls).
import { GraphQLError, type ValidationRule } from 'graphql';

const SETTINGS_MUTATIONS = new Set(['setConfig', 'setRoomConfig']);

export const noSettingsForUntrustedOrigin: ValidationRule = (context) => ({
  Field(node) {
    const parent = context.getParentType()?.name;
    const name = node.name.value;
    const settings = parent === 'GlobalConfig' || (parent === 'RoomConfig' && name.startsWith('optional'))
      || (parent === 'Mutation' && SETTINGS_MUTATIONS.has(name));
    if (settings) {
      context.reportError(new GraphQLError(`${parent}.${name} carries settings: not given to another origin (allow it with --http-cors-origin)`,
        { nodes: [node], extensions: { code: 'CROSS_ORIGIN_REFUSED' } }));
    }
  },
});
