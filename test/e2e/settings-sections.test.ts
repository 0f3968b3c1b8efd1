import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { startE2E, type E2E } from './fixture'
import { composer } from './helpers'

/** Nothing listens on the discard port of this machine's loopback: the connection is refused. */
const WRONG_REMOTE = 'http://127.0.0.1:9/nothing.git'

describe('Settings in sections (browser mode)', () => {
  let e2e: E2E
  afterAll(async () => {
    await e2e?.close()
  })

  it('moves between sections by keyboard, finds a setting by search, and keeps the section while away', async () => {
    e2e = await startE2E()
    const { page } = e2e
    await page.goto(e2e.url)
    await composer(page).waitFor()
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    const provider = page.getByRole('tab', { name: 'Provider', exact: true })
    expect(await provider.getAttribute('aria-selected')).toBe('true')
    await page.getByRole('heading', { level: 2, name: 'Model provider' }).waitFor()

    await provider.focus()
    await page.keyboard.press('ArrowDown')
    await page.getByRole('heading', { level: 2, name: 'Learning' }).waitFor()
    expect(await page.getByRole('tab', { name: 'Learning', exact: true }).evaluate((tab) => tab === tab.ownerDocument.activeElement)).toBe(true)
    expect(await page.getByRole('heading', { level: 2, name: 'Model provider' }).count()).toBe(0)

    const search = page.getByRole('searchbox', { name: 'Search settings' })
    await search.fill('access token')
    await page.getByRole('region', { name: 'Matching settings' }).getByRole('button', { name: /Access token/ }).waitFor()
    await search.press('Enter')
    const token = page.getByLabel('Access token')
    await expect.poll(() => token.evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true)
    expect(await page.getByRole('tab', { name: 'Data', exact: true }).getAttribute('aria-selected')).toBe('true')

    // Away and back (Ctrl+,): Settings opens on the section last shown.
    await page.getByRole('button', { name: 'New chat' }).first().click()
    await composer(page).waitFor()
    await page.keyboard.press('Control+,')
    await page.getByRole('heading', { level: 2, name: 'Data and backups' }).waitFor()
    expect(e2e.pageErrors).toEqual([])
  })
})

describe('Settings → Data → Sync with a wrong URL (browser mode)', () => {
  let e2e: E2E
  afterEach(async () => {
    await e2e?.close()
  })

  it('keeps what was typed and says why, with what fixes it', async () => {
    e2e = await startE2E()
    const { page } = e2e
    await page.goto(e2e.url)
    await composer(page).waitFor()
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('tab', { name: 'Data', exact: true }).click()
    const part = page.getByRole('region', { name: 'Sync across devices' })
    await part.getByLabel('Repository URL').fill(WRONG_REMOTE)
    await part.getByLabel('Access token').fill('tok-typed-by-hand')
    await part.getByRole('button', { name: 'Set up sync' }).click()
    const alert = part.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toContain(`${WRONG_REMOTE} could not be reached (ECONNREFUSED).`)
    expect(await alert.textContent()).toContain('Check the URL')
    expect(await part.getByLabel('Repository URL').inputValue()).toBe(WRONG_REMOTE)
    expect(await part.getByLabel('Access token').inputValue()).toBe('tok-typed-by-hand')
    await alert.getByRole('button', { name: 'Edit the URL' }).click()
    expect(await part.getByLabel('Repository URL').evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true)
    expect(JSON.parse(readFileSync(join(e2e.home, 'config.json'), 'utf8')).sync?.remote ?? '').toBe('')
    expect(e2e.pageErrors).toEqual([])
  })
})

describe('browser mode: a key remembered on this computer', () => {
  let e2e: E2E
  afterEach(async () => {
    await e2e?.close()
  })

  it('is kept in a file only the user may read and is there again after cairn serve restarts', async () => {
    // No key in the environment, so the one typed is the one used.
    e2e = await startE2E({ configured: false })
    let page = e2e.page
    await page.goto(e2e.url)
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByText(/a key typed here is kept only until “cairn serve” stops/).first().waitFor()
    await page.getByRole('switch', { name: 'Remember on this computer' }).first().click()
    await page.getByLabel('API key').fill('sk-remembered-4321')
    await page.getByLabel('API key').press('Enter')
    await page.getByTestId('key-status').filter({ hasText: '•••• 4321' }).filter({ hasText: 'remembered on this computer' }).waitFor()
    const file = join(e2e.home, 'secrets.local.json')
    expect(existsSync(file)).toBe(true)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const remembered = readFileSync(file, 'utf8')
    await e2e.close()

    // A new `cairn serve` over a home holding the same file.
    e2e = await startE2E({ configured: false, seed: (core) => copyInto(core.paths.root, remembered) })
    page = e2e.page
    await page.goto(e2e.url)
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByTestId('key-status').filter({ hasText: '•••• 4321' }).filter({ hasText: 'remembered on this computer' }).waitFor()
    expect(await page.getByRole('switch', { name: 'Remember on this computer' }).first().getAttribute('aria-checked')).toBe('true')
    expect(e2e.pageErrors).toEqual([])
  })
})

function copyInto(home: string, text: string): void {
  writeFileSync(join(home, 'secrets.local.json'), text, { mode: 0o600 })
}
