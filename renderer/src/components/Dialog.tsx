import { useEffect, useId, useRef, type ReactNode } from 'react'
import { keepFocusInside } from './focus-trap'

export interface DialogProps {
  title: string
  children: ReactNode
  /** Buttons, right-aligned. */
  actions: ReactNode
  onClose(): void
  wide?: boolean
}

/** A modal: Esc or the backdrop closes it; focus moves in on open, stays inside (Tab wraps) and goes back out on close. */
export function Dialog({ title, children, actions, onClose, wide = false }: DialogProps): React.JSX.Element {
  const titleId = useId()
  const panel = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    const target = panel.current?.querySelector<HTMLElement>('[data-autofocus]') ?? panel.current?.querySelector<HTMLElement>('button')
    target?.focus()
    return () => previous?.focus?.()
  }, [])
  return (
    <div className="dialog-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={panel}
        className={wide ? 'dialog wide' : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation()
            onClose()
          } else if (event.key === 'Tab' && panel.current) keepFocusInside(panel.current, event)
        }}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div className="dialog-body">{children}</div>
        <div className="dialog-actions">{actions}</div>
      </div>
    </div>
  )
}
