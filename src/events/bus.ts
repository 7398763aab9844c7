// In-process event bus: the recorder publishes lifecycle events; the webhook outbox, API and CLI subscribe.
import type { RecorderEvent } from './types.js';

export type EventListener = (event: RecorderEvent) => void;

export class EventBus {
  private readonly listeners = new Set<EventListener>();

  /** Subscribes; returns the unsubscribe function. */
  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Delivers synchronously; a throwing listener never stops the others or the publisher. */
  emit(event: RecorderEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // Listeners own their errors; the bus must never break the recorder.
      }
    }
  }
}
