// The room commands behind the buttons of the Rooms and Room detail pages.
import { api } from '../api';
import { store } from '../store';
import type { RoomDto } from '../types';

export type RoomAction = 'start' | 'stop' | 'split' | 'refresh';

export async function roomAction(room: RoomDto, action: RoomAction): Promise<void> {
  await api('POST', `api/room/${room.roomId}/${action}`, {});
}

export async function setAutoRecord(room: RoomDto, autoRecord: boolean): Promise<void> {
  await api('POST', `api/room/${room.roomId}/config`, { autoRecord });
  store.applyRoom({ ...room, autoRecord });
}

export async function removeRoom(room: RoomDto): Promise<void> {
  await api('DELETE', `api/room/${room.roomId}`);
  store.forget(room.objectId);
}

export async function addRoom(roomId: number, autoRecord: boolean): Promise<RoomDto> {
  const room = await api<RoomDto>('POST', 'api/room', { roomId, autoRecord });
  store.applyRoom(room);
  return room;
}
