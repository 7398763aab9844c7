// One room's actor (runs in a worker): live detection, recording sessions, stats and events for its room.
import type { RoomSettings } from '../config/fields.js';
import type { RoomCommand, RoomInit, RoomMessage, RoomState } from './protocol.js';
import { initialRoomState } from './protocol.js';

export class RoomActor {
  private settings: RoomSettings;
  private readonly state: RoomState = initialRoomState();
  private roomId: number;

  constructor(
    init: RoomInit,
    private readonly post: (m: RoomMessage) => void,
    private readonly onRealId: (id: number) => void,
  ) {
    this.settings = init.settings;
    this.roomId = init.roomId;
  }

  begin(): void {
    this.post({ type: 'state', roomId: this.roomId, state: { ...this.state } });
  }

  async command(command: RoomCommand): Promise<void> {
    switch (command) {
      case 'start':
        this.state.autoRecordForThisSession = true;
        break;
      case 'stop':
        this.state.autoRecordForThisSession = false;
        break;
      case 'dispose':
        await this.dispose();
        return;
      default:
        break;
    }
    this.post({ type: 'state', roomId: this.roomId, state: { autoRecordForThisSession: this.state.autoRecordForThisSession } });
  }

  updateSettings(settings: RoomSettings): void {
    this.settings = settings;
    void this.onRealId;
  }

  async dispose(): Promise<void> {}
}
