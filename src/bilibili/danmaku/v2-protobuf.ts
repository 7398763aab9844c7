// The protobuf bodies of the 2026 danmaku commands (SEND_GIFT_V2, INTERACT_WORD_V2 `data.pb`), decoded with protobufjs.
import protobuf from 'protobufjs';

/**
 * Only the fields liverec reads; protobuf skips the others. Field numbers come from the captures in
 * test/fixtures/bili-real/danmaku/*.decode_raw.txt (see docs/bilibili-2026.md, "Danmaku").
 */
const SCHEMA = `
syntax = "proto3";
message GiftUser { string uname = 1; int64 uid = 2; }
message GiftItem {
  int64 gift_id = 1; string gift_name = 2; int64 num = 3; int64 price = 5; int64 discount_price = 6;
  int64 total_coin = 7; string coin_type = 8; string tid = 9; int64 timestamp = 10; string batch_combo_id = 12;
  string action = 18; GiftUser receiver = 29;
}
message SendGiftV2 { int64 uid = 1; string uname = 2; string face = 3; repeated GiftItem gift_list = 10; bool switch = 11; }
message InteractWordV2 { int64 uid = 1; string uname = 2; int64 msg_type = 5; int64 room_id = 6; int64 timestamp = 7; int64 timestamp_ms = 8; }
`;

const root = protobuf.parse(SCHEMA, { keepCase: true }).root;
const sendGiftType = root.lookupType('SendGiftV2');
const interactType = root.lookupType('InteractWordV2');
const TO_OBJECT = { longs: Number, defaults: true, arrays: true } as const;

export interface GiftV2Item {
  giftId: number;
  giftName: string;
  num: number;
  price: number;
  totalCoin: number;
  coinType: string;
  tid: string;
  /** Unix seconds. */
  timestamp: number;
  batchComboId: string;
  action: string;
  receiverUid: number;
  receiverName: string;
}

export interface SendGiftV2 {
  uid: number;
  uname: string;
  face: string;
  gifts: GiftV2Item[];
  /**
   * Field 11 (`switch`, bool; 1 in both captures): false means the web client and brec do not show the gift
   * (issue 47; the field's name from a SendGiftBroadcastProtobuf definition in public code). Absent reads as false.
   */
  switch: boolean;
}

export interface InteractWordV2 {
  uid: number;
  uname: string;
  /** 1 entry, 2 follow, 3 share, … (as INTERACT_WORD's msg_type). */
  msgType: number;
  roomId: number;
  /** Unix seconds. */
  timestamp: number;
}

type Obj = Record<string, unknown>;
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Base64 `data.pb` of SEND_GIFT_V2; throws on bytes that are not such a message. */
export function decodeSendGiftV2(pb: string): SendGiftV2 {
  const o = sendGiftType.toObject(sendGiftType.decode(Buffer.from(pb, 'base64')), TO_OBJECT) as Obj;
  const gifts = (o.gift_list as Obj[]).map((g): GiftV2Item => {
    const r = (g.receiver ?? {}) as Obj;
    return {
      giftId: num(g.gift_id), giftName: str(g.gift_name), num: num(g.num), price: num(g.price), totalCoin: num(g.total_coin),
      coinType: str(g.coin_type), tid: str(g.tid), timestamp: num(g.timestamp), batchComboId: str(g.batch_combo_id),
      action: str(g.action), receiverUid: num(r.uid), receiverName: str(r.uname),
    };
  });
  return { uid: num(o.uid), uname: str(o.uname), face: str(o.face), gifts, switch: o.switch === true };
}

/** Base64 `data.pb` of INTERACT_WORD_V2; throws on bytes that are not such a message. */
export function decodeInteractWordV2(pb: string): InteractWordV2 {
  const o = interactType.toObject(interactType.decode(Buffer.from(pb, 'base64')), TO_OBJECT) as Obj;
  return { uid: num(o.uid), uname: str(o.uname), msgType: num(o.msg_type), roomId: num(o.room_id), timestamp: num(o.timestamp) };
}

/** Encoders for the simulator (the same schema, so what it sends is what the service sends). */
export function encodeSendGiftV2(v: Omit<SendGiftV2, 'switch'> & { switch?: boolean }): string {
  const msg = sendGiftType.fromObject({
    uid: v.uid, uname: v.uname, face: v.face, switch: v.switch ?? true,
    gift_list: v.gifts.map((g) => ({
      gift_id: g.giftId, gift_name: g.giftName, num: g.num, price: g.price, total_coin: g.totalCoin, coin_type: g.coinType, tid: g.tid,
      timestamp: g.timestamp, batch_combo_id: g.batchComboId, action: g.action, receiver: { uid: g.receiverUid, uname: g.receiverName },
    })),
  });
  return Buffer.from(sendGiftType.encode(msg).finish()).toString('base64');
}

export function encodeInteractWordV2(v: InteractWordV2): string {
  const msg = interactType.fromObject({ uid: v.uid, uname: v.uname, msg_type: v.msgType, room_id: v.roomId, timestamp: v.timestamp });
  return Buffer.from(interactType.encode(msg).finish()).toString('base64');
}
