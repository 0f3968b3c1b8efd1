import type { Translate } from '../../../../shared/i18n'

/** The local calendar day of a time, as a key that sorts and compares (`2026-03-04`). */
export function dayKey(at: number): string {
  const date = new Date(at)
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
}

const DAY_MS = 86_400_000

/** "Today", "Yesterday", a weekday within the last week, else the date (with the year when not this one), in the UI locale. */
export function dayHeading(at: number, now: number, locale: string, t: Translate): string {
  const startOf = (time: number) => {
    const date = new Date(time)
    return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()
  }
  const days = Math.round((startOf(now) - startOf(at)) / DAY_MS)
  if (days <= 0) return t('library.today')
  if (days === 1) return t('library.yesterday')
  if (days < 7) return new Intl.DateTimeFormat(locale, { weekday: 'long' }).format(at)
  const sameYear = new Date(at).getFullYear() === new Date(now).getFullYear()
  return new Intl.DateTimeFormat(locale, { weekday: 'short', month: 'long', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) }).format(at)
}
