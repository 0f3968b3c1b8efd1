/** A control that can take the focus inside a setting's anchor. */
const CONTROLS = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [tabindex]:not([tabindex="-1"])'
/** How long a jump waits for its setting once the section is on screen (cards that load their own data show it a moment later). */
const WAIT_MS = 1500

export interface SettingTarget {
  /** The `data-setting` the element showing the setting carries (its label's message key). */
  id: string
  /** The `data-setting` to land on when `id` is not shown in the current state (e.g. sync already set up). */
  fallback?: string
}

const anchorOf = (panel: HTMLElement, id: string): HTMLElement | null => panel.querySelector<HTMLElement>(`[data-setting="${id}"]`)

/** Whether the section has rendered and nothing in it is still loading (no spinner). */
const settled = (panel: HTMLElement): boolean => Boolean(panel.querySelector('h2, h3')) && !panel.querySelector('[role="status"]')

function land(anchor: HTMLElement): void {
  const control = anchor.matches(CONTROLS) ? anchor : anchor.querySelector<HTMLElement>(CONTROLS)
  const target = control ?? anchor
  if (!control && !target.hasAttribute('tabindex')) target.tabIndex = -1
  target.scrollIntoView?.({ block: 'center' })
  target.focus()
  anchor.classList.add('settings-found-flash')
  anchor.addEventListener('animationend', () => anchor.classList.remove('settings-found-flash'), { once: true })
}

/**
 * Brings the setting `target.id` into view and gives it the focus: the control inside the element
 * marked `data-setting` (or the element itself). A section whose cards load their own data shows it a
 * moment later, so the panel is watched until it appears; once the section has rendered and nothing is
 * loading, or a short while after, a setting not shown in the current state lands on its fallback or
 * the section's heading. Returns the clean-up that stops watching.
 */
export function focusSetting(panel: HTMLElement, target: SettingTarget, done: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  let watcher: MutationObserver | undefined
  const stop = (): void => {
    watcher?.disconnect()
    if (timer !== undefined) clearTimeout(timer)
  }
  const finish = (anchor: HTMLElement): void => {
    stop()
    land(anchor)
    done()
  }
  const fallBack = (): boolean => {
    const anchor = (target.fallback ? anchorOf(panel, target.fallback) : null) ?? panel.querySelector<HTMLElement>('h2, h3')
    if (!anchor) return false
    finish(anchor)
    return true
  }
  const attempt = (): boolean => {
    const anchor = anchorOf(panel, target.id)
    if (anchor) finish(anchor)
    else if (settled(panel)) return fallBack()
    return Boolean(anchor)
  }
  if (attempt()) return () => {}
  watcher = new MutationObserver(() => void attempt())
  watcher.observe(panel, { childList: true, subtree: true })
  timer = setTimeout(() => {
    if (!fallBack()) stop()
  }, WAIT_MS)
  return stop
}
