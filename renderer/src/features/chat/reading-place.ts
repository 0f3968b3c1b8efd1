/**
 * Keeps the row being read where it is on screen while an older page loads and is put in front, and
 * while rows the user scrolls to are measured for the first time. Virtuoso shifts the view by
 * estimates while it measures rows it has not shown yet, and rows of very different heights (code
 * blocks, folded output, tables) make those miss by hundreds of pixels; its own correction sometimes
 * comes a frame later, sometimes not at all. So the row under the top edge is noted when the page is
 * asked for (or the user scrolls), and every frame until the list has settled the view is moved back
 * by what the DOM shows, once a shift has held for two frames (a correction Virtuoso makes on its own
 * is left to it). The user scrolling meanwhile moves the noted place along.
 */
import { useCallback, useEffect, useRef } from 'react'

/** Each row's wrapper (MessageList's `.message-cell`) carries its key, so the row is found again after the list re-rendered. */
const ROW_KEY_ATTRIBUTE = 'data-row-key'

/** The row under the list's top edge and how far below that edge it starts (negative: cut off above). */
interface ReadingPlace {
  key: string
  offset: number
}

/** Frames without movement, the page in, after which the list counts as settled. */
const SETTLED_FRAMES = 6
/** A page that takes longer than this (about 10 s of frames) is not waited for. */
const MAX_FRAMES = 600
/** Keys and touch give no distance: for this long after them, a scroll is the user's own and the place follows it. */
const INPUT_MS = 250
const OTHER_INPUT_EVENTS = ['keydown', 'touchmove'] as const

function readingPlace(scroller: HTMLElement): ReadingPlace | null {
  const edge = scroller.getBoundingClientRect().top
  for (const cell of scroller.querySelectorAll<HTMLElement>(`[${ROW_KEY_ATTRIBUTE}]`)) {
    const rect = cell.getBoundingClientRect()
    if (rect.height > 0 && rect.bottom > edge) return { key: cell.getAttribute(ROW_KEY_ATTRIBUTE)!, offset: rect.top - edge }
  }
  return null
}

/** How far the row of `place` is from where it was noted (px, positive: lower on screen; null: not rendered). */
function driftOf(scroller: HTMLElement, place: ReadingPlace): number | null {
  const cell = scroller.querySelector(`[${ROW_KEY_ATTRIBUTE}="${CSS.escape(place.key)}"]`)
  if (!cell) return null
  return cell.getBoundingClientRect().top - scroller.getBoundingClientRect().top - place.offset
}

/**
 * Keeps the reading place while the list settles: from `hold()` (an older page asked for) until
 * `loading()` is false, and after every scroll of the user's, until nothing moves any more. Not while
 * `pinned()` (at the bottom, following an answer: the list scrolls itself there).
 */
export function useReadingPlaceKeeper(scroller: React.RefObject<HTMLElement | null>, listKey: number, loading: () => boolean, pinned: () => boolean): () => void {
  const keeper = useRef<Keeper | null>(null)
  useEffect(() => {
    const element = scroller.current
    if (!element) return
    const current = new Keeper(element, loading, pinned)
    keeper.current = current
    return () => {
      current.dispose()
      keeper.current = null
    }
  }, [scroller, listKey, loading, pinned])
  return useCallback(() => keeper.current?.keep(), [])
}

/**
 * Per frame: the part of a scroll that wheel input explains is the user's and moves the noted place
 * along; what is left is a shift of the list's own, corrected once it has held for two frames (one
 * Virtuoso corrects on its own in the next frame is left to it). Keys and the scrollbar give no
 * distance: while they are used, the place simply follows.
 */
class Keeper {
  private place: ReadingPlace | null = null
  private wheel = 0
  private inputUntil = 0
  private pointerDown = false
  private lastTop = 0
  private lastDrift = 0
  private still = 0
  private frames = 0
  private handle: number | null = null

  constructor(
    private readonly scroller: HTMLElement,
    private readonly loading: () => boolean,
    private readonly pinned: () => boolean
  ) {
    scroller.addEventListener('wheel', this.onWheel, { passive: true })
    for (const type of OTHER_INPUT_EVENTS) scroller.addEventListener(type, this.onOtherInput, { passive: true })
    scroller.addEventListener('pointerdown', this.onPointerDown)
    window.addEventListener('pointerup', this.onPointerUp)
  }

  keep(): void {
    if (this.handle !== null) return
    this.place = readingPlace(this.scroller)
    this.lastTop = this.scroller.scrollTop
    this.lastDrift = 0
    this.still = 0
    this.frames = 0
    this.handle = requestAnimationFrame(this.frame)
  }

  dispose(): void {
    if (this.handle !== null) cancelAnimationFrame(this.handle)
    this.scroller.removeEventListener('wheel', this.onWheel)
    for (const type of OTHER_INPUT_EVENTS) this.scroller.removeEventListener(type, this.onOtherInput)
    this.scroller.removeEventListener('pointerdown', this.onPointerDown)
    window.removeEventListener('pointerup', this.onPointerUp)
  }

  private readonly onWheel = (event: WheelEvent): void => {
    // Lines and pages (deltaMode 1, 2) are rare and of unknown size: followed like keys.
    if (event.deltaMode === 0) this.wheel += event.deltaY
    else this.inputUntil = performance.now() + INPUT_MS
    this.keep()
  }

  private readonly onOtherInput = (): void => {
    this.inputUntil = performance.now() + INPUT_MS
    this.keep()
  }

  private readonly onPointerDown = (): void => {
    this.pointerDown = true
    this.keep()
  }

  private readonly onPointerUp = (): void => {
    if (!this.pointerDown) return
    this.pointerDown = false
    this.onOtherInput()
  }

  private readonly frame = (): void => {
    const { scroller } = this
    const scrolled = scroller.scrollTop - this.lastTop
    // The wheel's share of the scroll: what it asked for, in its direction.
    const byWheel = Math.sign(scrolled) === Math.sign(this.wheel) ? Math.sign(scrolled) * Math.min(Math.abs(scrolled), Math.abs(this.wheel)) : 0
    this.wheel = scrolled === 0 && this.still > 0 ? 0 : this.wheel - byWheel
    if (this.place) this.place = { ...this.place, offset: this.place.offset - byWheel }
    const drift = this.place ? driftOf(scroller, this.place) : null
    const own = scrolled - byWheel
    if (this.pinned() || this.pointerDown || performance.now() < this.inputUntil || drift === null) {
      // Wherever the user goes is the new place to keep (and a row gone from the DOM cannot be kept).
      this.place = readingPlace(scroller)
      this.lastDrift = 0
      this.still = 0
    } else if (Math.abs(drift) >= 1 && own === 0 && Math.abs(drift - this.lastDrift) < 1) {
      scroller.scrollTop += drift
      this.lastDrift = driftOf(scroller, this.place!) ?? 0
      this.still = 0
    } else {
      this.still = Math.abs(drift - this.lastDrift) < 1 && own === 0 ? this.still + 1 : 0
      this.lastDrift = drift
    }
    this.lastTop = scroller.scrollTop
    const settled = this.still >= SETTLED_FRAMES && this.wheel === 0 && !this.loading()
    if (!this.place || settled || ++this.frames >= MAX_FRAMES) {
      this.handle = null
      return
    }
    this.handle = requestAnimationFrame(this.frame)
  }
}
