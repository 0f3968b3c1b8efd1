import { useEffect, useId, useRef, type ReactNode } from 'react'

export interface DialogProps {
  title: string
  children: ReactNode
  /** Buttons, right-aligned. */
  actions: ReactNode
  onClose(): void
  wide?: boolean
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** Tab from the last control goes to the first and Shift+Tab from the first to the last: focus stays in the modal. */
function keepFocusInside(panel: HTMLElement, event: React.KeyboardEvent): void {
  const controls = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => !element.closest('[hidden], [inert]'))
  if (!controls.length) return
  const first = controls[0]
  const last = controls[controls.length - 1]
  const at = document.activeElement
  if (event.shiftKey && (at === first || !panel.contains(at))) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && (at === last || !panel.contains(at))) {
    event.preventDefault()
    first.focus()
  }
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
