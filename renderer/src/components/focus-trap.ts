/** What Tab can reach in a modal. */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** Tab from the last control goes to the first and Shift+Tab from the first to the last: focus stays in the modal. */
export function keepFocusInside(panel: HTMLElement, event: Pick<KeyboardEvent, 'shiftKey' | 'preventDefault'>): void {
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
