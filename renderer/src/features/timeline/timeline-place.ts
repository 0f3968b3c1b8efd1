/**
 * Where the Timeline was when the user followed one of its links (to a skill's diff, to a
 * conversation): its scroll, and the link, so Back lands on the same entry instead of the top.
 */
export interface TimelinePlace {
  scrollTop: number
  /** The `data-place` of the link followed. */
  control: string | null
}

let left: TimelinePlace | null = null

/** Called by a link out of the Timeline, with the link itself. */
export function leaveTimeline(link: HTMLElement): void {
  left = { scrollTop: link.closest('.pane-scroll')?.scrollTop ?? 0, control: link.dataset.place ?? null }
}

/** The place to come back to, once (a later visit starts fresh). */
export function takeTimelinePlace(): TimelinePlace | null {
  const place = left
  left = null
  return place
}
