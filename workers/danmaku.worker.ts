// piscina task entry for danmaku XML reading (heat, suggestions): a big XML is parsed here, never on the API thread.
import { parseDanmakuTimes, type DanmakuTimes, type DanmakuTimesTask } from '../src/clips/danmaku-parse.js';

export default function readTimes(task: DanmakuTimesTask): DanmakuTimes {
  return parseDanmakuTimes(task);
}
