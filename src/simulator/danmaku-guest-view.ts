// What a guest's danmaku connection sees: senders' uid 0 and names masked (first character + `***`), and LOG_IN_NOTICE.
import protobuf from 'protobufjs';
import type { SimRoom } from './room.js';

/**
 * The service masks a name to its first character and `***` (`S***`, `观***`, `欠***` in 2026 field notes of
 * guest connections; bilibili-protocol.md §3.7 "names masked with `*`"). A name already masked stays as it is.
 */
export function maskName(name: string): string {
  if (name.endsWith('***')) return name;
  const first = [...name][0] ?? '';
  return `${first}***`;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * LOG_IN_NOTICE as the service sends it to a connection authenticated without a login, after the auth reply
 * (danmaku/bac_cmd_LOG_IN_NOTICE.json; bilibili-API-collect message_stream.md "未登录通知").
 */
export const LOG_IN_NOTICE = {
  cmd: 'LOG_IN_NOTICE',
  data: {
    notice_msg: '为保护用户隐私，未登录无法查看他人昵称',
    image_web: 'http://i0.hdslb.com/bfs/dm/75e7c16b99208df259fe0a93354fd3440cbab412.png',
    image_app: 'http://i0.hdslb.com/bfs/dm/b632f7dcd3acf47deffb5f9ccc9546ae97a3415b.png',
  },
};

/**
 * A command as a guest receives it. Masked where a source shows masking: DANMU_MSG (`info[2]` uid and name, and the
 * 2025 `info[0][15].user` uid, `base.name`, `base.origin_info.name`), INTERACT_WORD (`data.uid`, `data.uname`) and
 * INTERACT_WORD_V2 (`data.pb` field 1 left out, field 2 masked). Everything else (gifts, super chats, guards) as is:
 * no source shows them masked. Returns the same object when nothing changes.
 */
export function guestView(command: object): object {
  const c = command as Obj;
  const cmd = typeof c.cmd === 'string' ? c.cmd.split(':')[0] : '';
  if (cmd === 'DANMU_MSG' && Array.isArray(c.info)) return maskDanmu(c);
  if (cmd === 'INTERACT_WORD' && isObj(c.data)) return { ...c, data: { ...c.data, uid: 0, uname: maskName(String(c.data.uname ?? '')) } };
  if (cmd === 'INTERACT_WORD_V2' && isObj(c.data) && typeof c.data.pb === 'string') {
    const pb = maskInteractPb(c.data.pb);
    return pb === null ? c : { ...c, data: { ...c.data, pb } };
  }
  return c;
}

function maskDanmu(c: Obj): Obj {
  const info = structuredClone(c.info as unknown[]);
  const sender = info[2];
  if (Array.isArray(sender)) {
    sender[0] = 0;
    sender[1] = maskName(String(sender[1] ?? ''));
  }
  const meta = info[0];
  const extra = Array.isArray(meta) && isObj(meta[15]) ? meta[15] : null;
  if (extra && isObj(extra.user)) {
    extra.user.uid = 0;
    const base = extra.user.base;
    if (isObj(base)) {
      if (typeof base.name === 'string') base.name = maskName(base.name);
      if (isObj(base.origin_info) && typeof base.origin_info.name === 'string') base.origin_info.name = maskName(base.origin_info.name);
    }
  }
  return { ...c, info };
}

/** Rewrites the top-level fields 1 (uid: left out, as a guest's frame has none) and 2 (uname: masked); copies the rest byte for byte. */
function maskInteractPb(pb: string): string | null {
  const bytes = Buffer.from(pb, 'base64');
  const reader = protobuf.Reader.create(bytes);
  const parts: Uint8Array[] = [];
  try {
    while (reader.pos < reader.len) {
      const start = reader.pos;
      const tag = reader.uint32();
      const field = tag >>> 3;
      if (field === 2 && (tag & 7) === 2) {
        const name = reader.string();
        parts.push(protobuf.Writer.create().uint32(tag).string(maskName(name)).finish());
        continue;
      }
      reader.skipType(tag & 7);
      if (field !== 1) parts.push(bytes.subarray(start, reader.pos));
    }
  } catch {
    return null;
  }
  return Buffer.concat(parts).toString('base64');
}

/** Records who a getDanmuInfo token was issued to: a guest (no logged-in SESSDATA) or a logged-in user. */
export function issueToken(room: SimRoom, token: string, loggedIn: boolean): void {
  room.tokens.push(token);
  if (!loggedIn) room.guestTokens.add(token);
  while (room.tokens.length > 50) room.guestTokens.delete(room.tokens.shift()!);
}
