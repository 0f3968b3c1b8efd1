import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startE2E, type E2E } from './fixture'
import { composer, eventually, fileText, overflowingElements } from './helpers'

const SKILL = 'rotate-logs'
const skillMd = (description: string, body: string) => `---\nname: ${SKILL}\ndescription: ${description}\n---\n${body}`
const FIRST = skillMd('Rotate the app logs', '# Rotate logs\n1. Run logrotate.\n')
const LEARNED = skillMd('Rotate the app logs', '# Rotate logs\n1. Run logrotate -f.\n')
const BY_HAND = skillMd('Rotate the app logs', '# Rotate logs\n1. Run logrotate -f.\n2. Check the disk.\n')

let e2e: E2E
let page: Page
let skillFile: string

beforeAll(async () => {
  e2e = await startE2E({
    seed: async (core) => {
      await core.skills.create({ name: SKILL, category: 'ops', content: FIRST }, { source: 'review', reviewId: 'seed-review' })
      await core.skills.edit({ name: SKILL, content: LEARNED }, { source: 'review', reviewId: 'seed-review' })
      await core.skills.create({ name: 'brew-tea', category: 'kitchen', content: '---\nname: brew-tea\ndescription: Steep green tea\n---\n1. Boil water.\n' }, { source: 'agent' })
    }
  })
  skillFile = join(e2e.home, 'skills', 'ops', SKILL, 'SKILL.md')
  // Someone edits the learned skill by hand after the review: reverting the review's change now conflicts.
  writeFileSync(skillFile, BY_HAND)
  page = e2e.page
  await page.goto(e2e.url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await e2e?.close()
})

const sections = () => page.getByRole('navigation', { name: 'Sections' })

describe('the Timeline in plain words', () => {
  it('heads today’s changes with “Today” and labels its filter groups', async () => {
    await sections().getByRole('button', { name: 'Timeline', exact: true }).click()
    await page.getByRole('heading', { name: 'Today', level: 3 }).waitFor()
    for (const group of ['What', 'Change', 'From']) await page.getByRole('group', { name: group }).waitFor()
    await page.getByRole('group', { name: 'Change' }).getByRole('button', { name: 'Added' }).click()
    await page.getByRole('article', { name: 'Skill rewritten' }).waitFor({ state: 'detached' })
    await page.getByRole('article', { name: 'Skill created' }).first().waitFor()
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await page.getByRole('article', { name: 'Skill rewritten' }).waitFor()
  })

  it('shows what changed since, reverts anyway on confirmation, and records an undo that can itself be undone', async () => {
    const learned = page.getByRole('article', { name: 'Skill rewritten' })
    await learned.getByRole('button', { name: 'Revert' }).click()
    await page.getByRole('dialog', { name: 'Revert this change?' }).getByRole('button', { name: 'Revert' }).click()
    const dialog = page.getByRole('dialog', { name: 'Could not revert' })
    await dialog.waitFor()
    expect(await dialog.locator('tr[data-type="add"] .code').allInnerTexts()).toEqual(['2. Check the disk.'])
    await e2e.screenshot('library-conflict')
    expect(fileText(skillFile)).toBe(BY_HAND)

    await dialog.getByRole('button', { name: 'Revert anyway' }).click()
    await dialog.waitFor({ state: 'detached' })
    await eventually(() => fileText(skillFile), (text) => text === FIRST, 'SKILL.md back to the first version')
    const undo = page.getByRole('article', { name: 'Undo of “Skill rewritten”' })
    await undo.waitFor()
    // The undo's own revert brings back the text written by hand: nothing was lost.
    await undo.getByRole('button', { name: 'Revert' }).click()
    await page.getByRole('dialog', { name: 'Revert this change?' }).getByRole('button', { name: 'Revert' }).click()
    await eventually(() => fileText(skillFile), (text) => text === BY_HAND, 'SKILL.md back to the hand-edited text')
  })
})

describe('the Skills screen', () => {
  it('searches, creates a skill from the form, edits it by hand as the user, and opens its folder', async () => {
    await sections().getByRole('button', { name: 'Skills', exact: true }).click()
    const search = page.getByRole('searchbox', { name: 'Search skills' })
    await search.fill('tea')
    await page.locator('.skill-row').filter({ hasText: 'brew-tea' }).waitFor()
    expect(await page.locator('.skill-row').count()).toBe(1)
    await search.fill('')

    await page.getByRole('button', { name: 'New skill' }).click()
    const form = page.getByRole('dialog', { name: 'New skill' })
    await form.getByLabel('Name').fill('check-disk')
    await form.getByLabel('Category (optional)').fill('ops')
    await form.getByLabel('Description').fill('Check free disk space: before a deploy')
    await form.getByLabel('Instructions').fill('1. Run `df -h`.')
    await form.getByRole('button', { name: 'Create skill' }).click()
    await form.waitFor({ state: 'detached' })
    const created = join(e2e.home, 'skills', 'ops', 'check-disk', 'SKILL.md')
    await eventually(() => fileText(created), (text) => text !== null && text.includes('1. Run `df -h`.'), 'the new SKILL.md')
    await page.getByRole('heading', { name: 'check-disk' }).waitFor()

    await page.getByRole('button', { name: 'Edit' }).click()
    const editor = page.getByRole('textbox', { name: 'SKILL.md of check-disk' })
    await editor.fill('---\nname: check-disk\n')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('alert').filter({ hasText: 'Nothing was saved' }).waitFor()
    expect(fileText(created)).toContain('1. Run `df -h`.')
    await editor.fill('---\nname: check-disk\ndescription: Check free disk space\n---\n1. Run `df -h /`.\n')
    await page.getByRole('button', { name: 'Save' }).click()
    await editor.waitFor({ state: 'detached' })
    expect(fileText(created)).toContain('1. Run `df -h /`.')
    await page.locator('.skill-header').getByText('Written by you').waitFor()

    await page.getByRole('button', { name: 'Open folder' }).click()
    const folder = page.getByRole('dialog', { name: 'Skill folder' })
    expect(await folder.getByTestId('skill-folder').innerText()).toBe(join(e2e.home, 'skills', 'ops', 'check-disk'))
    await folder.getByRole('button', { name: 'Close' }).click()
  })

  it('deletes a skill into the archive, after a dialog that says so', async () => {
    await page.locator('.skill-row').filter({ hasText: 'brew-tea' }).click()
    await page.getByRole('heading', { name: 'brew-tea' }).waitFor()
    await page.locator('.skill-actions').getByRole('button', { name: 'Delete' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete “brew-tea”?' })
    expect(await dialog.innerText()).toContain('moves to the archive')
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.locator('.skill-row').filter({ hasText: 'brew-tea' }).waitFor({ state: 'detached' })
    expect(existsSync(join(e2e.home, 'skills', 'kitchen', 'brew-tea'))).toBe(false)
    expect(readdirSync(join(e2e.home, 'skills', '.archive')).some((name) => name.startsWith('brew-tea-'))).toBe(true)
  })

  it('stacks the list above the skill and the diff in a 640 px window, light and dark', async () => {
    const problems: string[] = []
    for (const scheme of ['light', 'dark'] as const) {
      const narrow = await e2e.newPage({ viewport: { width: 640, height: 820 }, colorScheme: scheme })
      await narrow.goto(e2e.url)
      await composer(narrow).waitFor()
      await narrow.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Skills', exact: true }).click()
      await narrow.locator('.skill-row').filter({ hasText: SKILL }).click()
      await narrow.getByRole('tab', { name: /^History/ }).click()
      await narrow.locator('.history-row').first().click()
      await narrow.locator('.diff-viewer').first().getByRole('button', { name: 'Side by side' }).click()
      const list = await narrow.locator('.split-list').boundingBox()
      const detail = await narrow.locator('.split-detail').boundingBox()
      expect(detail!.y).toBeGreaterThanOrEqual(list!.y + list!.height - 1)
      problems.push(...(await overflowingElements(narrow)).map((problem) => `${scheme} skills: ${problem}`))
      await e2e.screenshot(`library-skills-640-${scheme}`, narrow)
      await narrow.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Timeline', exact: true }).click()
      await narrow.getByRole('heading', { name: 'Today', level: 3 }).waitFor()
      problems.push(...(await overflowingElements(narrow)).map((problem) => `${scheme} timeline: ${problem}`))
      await e2e.screenshot(`library-timeline-640-${scheme}`, narrow)
      await narrow.context().close()
    }
    expect(problems).toEqual([])
    expect(e2e.pageErrors).toEqual([])
  })
})
