export interface FrameScheduler {
  request(callback: () => void): number
  cancel(handle: number): void
}

export const animationFrames: FrameScheduler = {
  request: (callback) => requestAnimationFrame(() => callback()),
  cancel: (handle) => cancelAnimationFrame(handle)
}

export interface DeltaBuffer {
  push(text: string): void
  /** Hands over whatever is pending now (before an event that must come after the text). */
  flush(): void
  /** Drops pending text (the session changed). */
  clear(): void
}

/**
 * Collects streamed text and hands it to `deliver` at most once per animation frame, so a fast
 * stream costs one store update per frame instead of one per token.
 */
export function createDeltaBuffer(deliver: (text: string) => void, frames: FrameScheduler = animationFrames): DeltaBuffer {
  let pending = ''
  let handle: number | null = null
  const flush = (): void => {
    if (handle !== null) frames.cancel(handle)
    handle = null
    if (!pending) return
    const text = pending
    pending = ''
    deliver(text)
  }
  return {
    push(text) {
      pending += text
      if (handle === null) {
        handle = frames.request(() => {
          handle = null
          flush()
        })
      }
    },
    flush,
    clear() {
      if (handle !== null) frames.cancel(handle)
      handle = null
      pending = ''
    }
  }
}
