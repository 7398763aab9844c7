// brec's GraphQL schema (GraphQL.NET type and field names) as SDL, built once; doubles may be NaN, sent as "NaN".
import {
  buildSchema, GraphQLFloat, GraphQLList, GraphQLNonNull, GraphQLScalarType, isObjectType, Kind, type GraphQLOutputType, type GraphQLSchema,
  type ValueNode,
} from 'graphql';
import { wireDouble } from '../json.js';
import { parseRoomRef } from '../room-id.js';
import { RECORDER_VERSION_FIELDS } from '../version.js';
import { configSdl } from './config-types.js';


const ROOM_ARGS = 'objectId: Guid, roomId: Int';

export const SDL = `
"64-bit integer"
scalar Long
"32-bit unsigned integer"
scalar UInt
"A GUID (any .NET form)"
scalar Guid
"ISO-8601 date and time with offset"
scalar DateTimeOffset
"A duration in whole milliseconds"
scalar Milliseconds

type Query {
  version: RecorderVersion
  config: GlobalConfig
  defaultConfig: DefaultConfig
  rooms(objectIds: [ID], roomIds: [Int]): [Room]
  room(objectId: ID, roomId: Int): Room
}

type Mutation {
  addRoom(roomId: Int, autoRecord: Boolean): Room
  removeRoom(${ROOM_ARGS}): Room
  refreshRoomInfo(${ROOM_ARGS}): Room
  startRecording(${ROOM_ARGS}): Room
  stopRecording(${ROOM_ARGS}): Room
  splitRecordingOutput(${ROOM_ARGS}): Room
  setRoomConfig(${ROOM_ARGS}, config: SetRoomConfig): Room
  setConfig(config: SetGlobalConfig): GlobalConfig
}

type RecorderVersion {
${RECORDER_VERSION_FIELDS.map((f) => `  ${f}: String!`).join('\n')}
}

type Room {
  objectId: ID!
  roomConfig: RoomConfig!
  shortId: Int!
  name: String!
  uid: Long!
  title: String!
  areaNameParent: String!
  areaNameChild: String!
  recording: Boolean!
  streaming: Boolean!
  autoRecordForThisSession: Boolean!
  danmakuConnected: Boolean!
  ioStats: IOStats!
  recordingStats: RecordingStats!
}

type IOStats {
  streamHost: String
  startTime: DateTimeOffset!
  endTime: DateTimeOffset!
  duration: Milliseconds!
  networkBytesDownloaded: Int!
  networkMbps: Float!
  diskWriteDuration: Milliseconds!
  diskBytesWritten: Int!
  diskMBps: Float!
}

type RecordingStats {
  sessionDuration: Milliseconds!
  totalInputBytes: Long!
  totalOutputBytes: Long!
  currentFileSize: Long!
  sessionMaxTimestamp: Milliseconds!
  fileMaxTimestamp: Milliseconds!
  addedDuration: Float!
  passedTime: Float!
  durationRatio: Float!
  inputVideoBytes: Long!
  inputAudioBytes: Long!
  outputVideoFrames: Int!
  outputAudioFrames: Int!
  outputVideoBytes: Long!
  outputAudioBytes: Long!
  totalInputVideoBytes: Long!
  totalInputAudioBytes: Long!
  totalOutputVideoFrames: Int!
  totalOutputAudioFrames: Int!
  totalOutputVideoBytes: Long!
  totalOutputAudioBytes: Long!
}

${configSdl()}
`;

/** graphql-js's Float refuses NaN and ±Infinity; brec's serializer writes them as strings, as its REST API does. */
const BrecFloat = new GraphQLScalarType({
  ...GraphQLFloat.toConfig(),
  serialize: (value) => (typeof value === 'number' && !Number.isFinite(value) ? wireDouble(value) : GraphQLFloat.serialize(value)),
});

function withBrecFloat(type: GraphQLOutputType): GraphQLOutputType {
  if (type instanceof GraphQLNonNull) return new GraphQLNonNull(withBrecFloat(type.ofType));
  if (type instanceof GraphQLList) return new GraphQLList(withBrecFloat(type.ofType));
  return type === GraphQLFloat ? BrecFloat : type;
}

/** Input checks of the custom scalars (a bad value is a validation error naming the scalar, as in GraphQL.NET). */
const INPUT_CHECKS: Record<string, (v: unknown) => unknown> = {
  Guid: (v) => {
    const ref = typeof v === 'string' ? parseRoomRef(v) : null;
    if (ref?.kind !== 'guid') throw new TypeError(`Guid cannot represent ${JSON.stringify(v)}`);
    return ref.id;
  },
  UInt: (v) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new TypeError(`UInt cannot represent ${JSON.stringify(v)}`);
    return v;
  },
  Long: (v) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new TypeError(`Long cannot represent ${JSON.stringify(v)}`);
    return v;
  },
};

const literal = (ast: ValueNode): unknown =>
  ast.kind === Kind.INT ? Number(ast.value) : ast.kind === Kind.STRING ? ast.value : ast.kind === Kind.FLOAT ? Number(ast.value) : undefined;

let built: GraphQLSchema | null = null;

/** The schema; output Float fields are switched to the NaN-tolerant scalar before the schema is first validated. */
export function brecSchema(): GraphQLSchema {
  if (built) return built;
  const schema = buildSchema(SDL);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) field.type = withBrecFloat(field.type);
  }
  for (const [name, check] of Object.entries(INPUT_CHECKS)) {
    const scalar = schema.getType(name) as GraphQLScalarType;
    scalar.parseValue = check;
    scalar.parseLiteral = (ast) => check(literal(ast));
  }
  built = schema;
  return schema;
}
