import { useEffect, useState } from 'react'

/** Below this width the sidebar folds to a rail and opens over the screen instead of beside it. */
export const NARROW_QUERY = '(max-width: 899px)'

export function isNarrowWindow(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches
}

/** Whether the window is narrow now; re-renders when it crosses the line. */
export function useNarrowWindow(): boolean {
  const [narrow, setNarrow] = useState(isNarrowWindow)
  useEffect(() => {
    // Resize rather than the query's change event: the same answer either way, and every engine sends it.
    const update = (): void => setNarrow(isNarrowWindow())
    update()
    window.addEventListener('resize', update)
    return () => window.removeEventListener('resize', update)
  }, [])
  return narrow
}
