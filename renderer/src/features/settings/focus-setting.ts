/** Where a setting's label can be: a field's label, a card's or group's heading, a list term. */
const LABELS = 'label, h2, h3, .field-label, dt'

/**
 * Brings the setting labelled `label` into view and gives it the focus: the control a `<label>` names,
 * else the heading itself. A section whose cards load their own data shows the label a moment later, so
 * until it appears the panel is watched; returns the clean-up that stops watching.
 */
export function focusSetting(panel: HTMLElement, label: string, done: () => void): () => void {
  const attempt = (): boolean => {
    const found = [...panel.querySelectorAll<HTMLElement>(LABELS)].find((element) => element.textContent?.trim() === label)
    if (!found) return false
    const control = found instanceof HTMLLabelElement && found.htmlFor ? panel.ownerDocument.getElementById(found.htmlFor) : null
    const target = control ?? found
    if (!control && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1')
    target.scrollIntoView?.({ block: 'center' })
    target.focus()
    found.classList.add('settings-found-flash')
    found.addEventListener('animationend', () => found.classList.remove('settings-found-flash'), { once: true })
    done()
    return true
  }
  if (attempt()) return () => {}
  const watcher = new MutationObserver(() => {
    if (attempt()) watcher.disconnect()
  })
  watcher.observe(panel, { childList: true, subtree: true })
  return () => watcher.disconnect()
}
