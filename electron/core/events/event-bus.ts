/** A tiny typed event stream: listeners are isolated, so a failing subscriber never breaks the turn. */
export class EventBus<E> {
  private readonly listeners = new Set<(event: E) => void>()

  on(listener: (event: E) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit(event: E): void {
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch (error) {
        // A broken subscriber (a closed window, a full pipe) must not stop the agent.
        console.error('cairn: event listener failed:', error)
      }
    }
  }
}
