import { useEffect, useRef } from 'react'
import type { View } from '../stores/ui'

/**
 * After a change of screen that took the focused control away with the old screen (a link like
 * "View changes", Back, a shortcut), focus goes to the new screen's heading, so the next Tab
 * continues inside it rather than from the top of the page. A sidebar button keeps its focus.
 */
export function useFocusOnScreenChange(view: View, main: React.RefObject<HTMLElement | null>): void {
  const shown = useRef(view)
  useEffect(() => {
    if (shown.current === view) return
    shown.current = view
    const at = document.activeElement
    if (at && at !== document.body && at.isConnected) return
    const heading = main.current?.querySelector<HTMLElement>('h1')
    if (!heading) return
    heading.tabIndex = -1
    heading.focus({ preventScroll: true })
  }, [view, main])
}
