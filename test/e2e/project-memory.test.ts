import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startE2E, type E2E } from './fixture'
import { composer, overflowingElements } from './helpers'

const SMALLEST = { width: 640, height: 720 }
let e2e: E2E

beforeAll(async () => {
  e2e = await startE2E({
    seed: async (core) => {
      const workspace = core.config.get().agent.workspace!
      writeFileSync(join(workspace, 'AGENTS.md'), '# Agents\n\nRun make verify before every commit.\n')
      await core.memory.add('user', 'Prefers short answers with the command first', { write: { source: 'user' } })
      await core.memory.add('memory', 'Backups go to the NAS at nas.local', { write: { source: 'user' } })
      await core.memory.forWorkspace(workspace).add('project', 'Integration tests need docker compose up first', { write: { source: 'user' } })
    }
  })
})

afterAll(async () => {
  await e2e?.close()
})

async function openMemory(page: Page, name: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: name === 'Memory' ? 'Sections' : '分区' }).getByRole('button', { name, exact: true }).click()
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
}

describe('project memory in the browser', () => {
  it('shows the Project card and the instruction files, in both themes and languages, and fits 640 px', async () => {
    const { page } = e2e
    await page.goto(e2e.url)
    await composer(page).waitFor()
    const header = page.getByRole('group', { name: 'Project instructions' })
    await header.getByRole('button', { name: 'Open AGENTS.md' }).waitFor()
    await e2e.screenshot('project-instructions-header-light')
    await openMemory(page, 'Memory', 'Memory')
    const card = page.getByRole('region', { name: 'This project' })
    await card.getByText('Integration tests need docker compose up first').waitFor()
    await e2e.screenshot('memory-project-light-en')

    const dark = await e2e.newPage({ viewport: SMALLEST, colorScheme: 'dark' })
    await dark.goto(e2e.url)
    await composer(dark).waitFor()
    await dark.getByRole('group', { name: 'Project instructions' }).waitFor()
    expect(await overflowingElements(dark)).toEqual([])
    await dark.getByRole('button', { name: 'Memory', exact: true }).first().click()
    await dark.getByRole('region', { name: 'This project' }).waitFor()
    expect(await overflowingElements(dark)).toEqual([])
    // Keyboard: the project card's add box is reachable and named.
    await dark.getByRole('region', { name: 'This project' }).getByRole('textbox', { name: 'New entry for This project' }).focus()
    await e2e.screenshot('memory-project-dark-640', dark)

    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()
    await page.getByRole('tab', { name: 'Appearance', exact: true }).click()
    await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).click()
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN')
    await page.getByRole('heading', { level: 1, name: '设置' }).waitFor()
    await openMemory(page, '记忆', '记忆')
    await page.getByRole('region', { name: '此项目' }).getByText('Integration tests need docker compose up first').waitFor()
    await e2e.screenshot('memory-project-dark-zh-CN')
  })
})
