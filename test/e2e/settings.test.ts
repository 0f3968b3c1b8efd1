import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startE2E, type E2E } from './fixture'
import { composer, eventually } from './helpers'
import type { PageDom } from './page-dom'

async function pageLook(target: Page): Promise<{ theme: string | undefined; lang: string | undefined }> {
  return target.evaluate(() => {
    const root = (globalThis as unknown as PageDom).document.documentElement
    return { theme: root.dataset.theme, lang: (root as unknown as { lang: string }).lang }
  })
}

describe('first run', () => {
  let e2e: E2E
  beforeAll(async () => {
    e2e = await startE2E({ configured: false })
  })
  afterAll(async () => {
    await e2e?.close()
  })

  it('shows what is missing in the chat pane, with a way to Settings', async () => {
    const { page } = e2e
    await page.goto(e2e.url)
    await page.getByRole('heading', { name: 'Connect a model to get started' }).waitFor()
    expect(await page.getByRole('status').filter({ hasText: 'No model is chosen' }).count()).toBe(1)
    await e2e.screenshot('first-run')

    await page.getByRole('button', { name: 'Open Settings' }).click()
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()
    await page.getByRole('heading', { level: 2, name: 'Model provider' }).waitFor()
    await e2e.screenshot('first-run-settings')
    expect(e2e.pageErrors).toEqual([])
  })
})

describe('settings', () => {
  let e2e: E2E
  beforeAll(async () => {
    e2e = await startE2E()
  })
  afterAll(async () => {
    await e2e?.close()
  })

  it('saves theme, language and a learning interval to config.json, and they survive a reload and a new browser', async () => {
    const { page } = e2e
    await page.goto(e2e.url)
    await composer(page).waitFor()
    expect(await pageLook(page)).toEqual({ theme: 'light', lang: 'en' })
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()

    await page.getByRole('tab', { name: 'Learning', exact: true }).click()
    const interval = page.getByRole('spinbutton', { name: 'Memory review every' })
    expect(await interval.inputValue()).toBe('10')
    await interval.fill('3')
    await interval.press('Enter')
    await page.getByRole('tab', { name: 'Appearance', exact: true }).click()
    await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).click()
    expect((await pageLook(page)).theme).toBe('dark')
    await e2e.screenshot('settings-dark')
    await page.getByRole('combobox', { name: 'Language' }).selectOption('zh-CN')
    // The UI switches language at once (设置 = Settings).
    await page.getByRole('heading', { level: 1, name: '设置' }).waitFor()
    expect(await pageLook(page)).toEqual({ theme: 'dark', lang: 'zh-CN' })

    const configFile = join(e2e.home, 'config.json')
    const config = await eventually(
      () => JSON.parse(readFileSync(configFile, 'utf8')) as { ui: { theme: string; language: string }; learning: { memoryNudgeInterval: number } },
      (saved) => saved.ui.theme === 'dark' && saved.ui.language === 'zh-CN' && saved.learning.memoryNudgeInterval === 3,
      'config.json to hold the new settings'
    )
    expect(config.learning.memoryNudgeInterval).toBe(3)

    await page.reload()
    await page.getByRole('heading', { level: 1, name: '设置' }).waitFor()
    expect(await pageLook(page)).toEqual({ theme: 'dark', lang: 'zh-CN' })
    await page.getByRole('tab', { name: '学习', exact: true }).click()
    expect(await page.getByRole('spinbutton', { name: '记忆回顾间隔' }).inputValue()).toBe('3')

    // A new browser profile has no local storage: what it shows comes from config.json.
    const fresh = await e2e.newPage({ colorScheme: 'light' })
    await fresh.goto(e2e.url)
    await fresh.getByRole('textbox', { name: '消息' }).waitFor()
    await expect.poll(() => pageLook(fresh)).toEqual({ theme: 'dark', lang: 'zh-CN' })
    await e2e.screenshot('settings-persisted-new-browser', fresh)
    expect(e2e.pageErrors).toEqual([])
  })
})
