import { screen, within } from '@testing-library/react'

/** The sidebar's conversation titles under each date heading, in the order shown. */
export function sidebarSections(): Array<{ heading: string; titles: string[] }> {
  const list = screen.getByRole('navigation', { name: 'Conversations' })
  const sections: Array<{ heading: string; titles: string[] }> = []
  for (const element of list.querySelectorAll('[role="heading"], .session-title')) {
    if (element.getAttribute('role') === 'heading') sections.push({ heading: element.textContent ?? '', titles: [] })
    else sections.at(-1)?.titles.push(element.textContent ?? '')
  }
  // A sticky copy of the current heading sits above the rows; the section's own heading comes again.
  return sections.filter((section, index) => section.titles.length || sections[index + 1]?.heading !== section.heading)
}

/** The titles under one heading, or null when the sidebar shows no such section. */
export function sectionTitles(heading: string): string[] | null {
  return sidebarSections().find((section) => section.heading === heading)?.titles ?? null
}

/** The "⋯" button beside a conversation's row. */
export function moreButton(title: string): HTMLElement {
  const row = screen.getByRole('button', { name: new RegExp(`^${title}`) }).closest<HTMLElement>('.session-item')!
  return within(row).getByRole('button', { name: 'More actions' })
}
