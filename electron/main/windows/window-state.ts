import { z } from 'zod'

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

/** The main window's last size and place (kept by the shell store, see settings/shell-store.ts). */
export interface WindowState {
  bounds: Rect
  maximized: boolean
}

export interface WindowPlacement {
  /** Without x/y the window opens centred. */
  bounds: { x?: number; y?: number; width: number; height: number }
  maximized: boolean
}

const size = z.number().int().min(100).max(100_000)
const coordinate = z.number().int().min(-100_000).max(100_000)
const windowStateSchema = z.object({
  bounds: z.object({ x: coordinate, y: coordinate, width: size, height: size }),
  maximized: z.boolean().default(false)
})

/** At least this much of the window must be on some screen, or it is moved back to the centre. */
const MIN_VISIBLE = { width: 120, height: 60 }

/** The saved state, or null when there is none or it is not a sensible one (a fresh placement is harmless). */
export function parseWindowState(saved: unknown): WindowState | null {
  const parsed = windowStateSchema.safeParse(saved)
  return parsed.success ? parsed.data : null
}

/** What to save: whole pixels, checked (throws on a size or place no screen could have). */
export function windowStateToSave(state: WindowState): WindowState {
  return windowStateSchema.parse({ bounds: roundRect(state.bounds), maximized: state.maximized })
}

/**
 * Where to open the window: the saved bounds when enough of them is on a current screen (a monitor
 * may have been unplugged since), otherwise the saved size (shrunk to fit) centred.
 */
export function placeWindow(saved: WindowState | null, workAreas: Rect[], defaults: { width: number; height: number }): WindowPlacement {
  if (!saved) return { bounds: { ...defaults }, maximized: false }
  const largest = workAreas.reduce<Rect | null>((best, area) => (!best || area.width * area.height > best.width * best.height ? area : best), null)
  const width = largest ? Math.min(saved.bounds.width, largest.width) : saved.bounds.width
  const height = largest ? Math.min(saved.bounds.height, largest.height) : saved.bounds.height
  const bounds = { ...saved.bounds, width, height }
  if (workAreas.some((area) => visibleEnough(bounds, area))) return { bounds, maximized: saved.maximized }
  return { bounds: { width, height }, maximized: saved.maximized }
}

function visibleEnough(window: Rect, area: Rect): boolean {
  const left = Math.max(window.x, area.x)
  const right = Math.min(window.x + window.width, area.x + area.width)
  // The top strip (title bar) must be reachable, so measure from the window's top edge.
  const top = Math.max(window.y, area.y)
  const bottom = Math.min(window.y + window.height, area.y + area.height)
  const titleOnScreen = window.y >= area.y && window.y < area.y + area.height
  return titleOnScreen && right - left >= MIN_VISIBLE.width && bottom - top >= MIN_VISIBLE.height
}

function roundRect(rect: Rect): Rect {
  return { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) }
}
