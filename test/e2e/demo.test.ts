import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromium, type Browser, type Page } from 'playwright-core'
import { DEMO_PROMPTS, LEARNED_SKILL, MEMORY_ENTRY, USER_SKILL, USER_SKILL_CATEGORY, USER_SKILL_CONTENT } from '../../scripts/demo-story'
import { CHROMIUM, WIDE } from './fixture'
import { composer, eventually, fileText, send } from './helpers'
import type { PageDom } from './page-dom'

const root = join(__dirname, '..', '..')
const tsxLoader = pathToFileURL(createRequire(__filename).resolve('tsx')).href

let demo: ChildProcess
let exited: Promise<number | null>
let output = ''
let browser: Browser
let page: Page
let home: string

/** What `npm run demo` runs, as a child process of its own. */
function startDemo(): Promise<string> {
  demo = spawn(process.execPath, ['--import', tsxLoader, join(root, 'scripts/demo.ts')], { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME }, stdio: ['ignore', 'pipe', 'pipe'] })
  exited = new Promise((resolve) => demo.once('close', (code) => resolve(code)))
  demo.stdout?.on('data', (data: Buffer) => (output += data.toString()))
  demo.stderr?.on('data', (data: Buffer) => (output += data.toString()))
  return eventually(() => output.match(/Open: (\S+)/)?.[1], Boolean, `the demo's URL; it printed:\n${output}`, 60_000) as Promise<string>
}

beforeAll(async () => {
  const url = await startDemo()
  home = output.match(/Data home: (\S+)/)![1]
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] })
  const context = await browser.newContext({ viewport: WIDE })
  context.setDefaultTimeout(15_000)
  page = await context.newPage()
  await page.goto(url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await browser?.close()
  if (demo && demo.exitCode === null && demo.signalCode === null) demo.kill('SIGKILL')
})

describe('npm run demo', () => {
  it('prints the story to try and serves the app with its icon', async () => {
    expect(output).toContain(`“${DEMO_PROMPTS[0]}”`)
    expect(output).toContain(`“${DEMO_PROMPTS[1]}”`)
    expect(fileText(join(home, 'skills', USER_SKILL_CATEGORY, USER_SKILL, 'SKILL.md'))).toBe(USER_SKILL_CONTENT)
    const icon = await page.evaluate(async () => {
      const { document } = globalThis as unknown as PageDom
      const link = document.querySelector('link[rel="icon"]') as unknown as { href: string } | null
      if (!link) return null
      const response = await fetch(link.href)
      return { status: response.status, type: response.headers.get('content-type'), body: await response.text() }
    })
    expect(icon).toMatchObject({ status: 200, type: 'image/svg+xml' })
    expect(icon!.body).toContain('<svg')
  })

  it('answers with npm, then learns from the correction: the preference and a new skill on the Timeline, a change to the user\'s skill in the Inbox', async () => {
    await send(page, DEMO_PROMPTS[0])
    await page.getByText('npm init -y').waitFor()
    await send(page, DEMO_PROMPTS[1])
    await page.getByText('Got it: pnpm from now on.').waitFor()
    const inbox = page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Inbox, 1 waiting' })
    await inbox.waitFor({ timeout: 30_000 })

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Timeline' }).click()
    const review = page.getByRole('region', { name: 'Background review' })
    await review.getByRole('article', { name: 'Memory added' }).filter({ hasText: MEMORY_ENTRY }).waitFor()
    await review.getByRole('article', { name: 'Skill created' }).filter({ hasText: LEARNED_SKILL }).waitFor()
    expect(fileText(join(home, 'memories', 'USER.md'))).toBe(MEMORY_ENTRY)
    // The user's own skill is untouched until they approve.
    const userSkill = join(home, 'skills', USER_SKILL_CATEGORY, USER_SKILL, 'SKILL.md')
    expect(fileText(userSkill)).toBe(USER_SKILL_CONTENT)

    await inbox.click()
    const proposal = page.getByRole('article', { name: `Patch the skill “${USER_SKILL}”` })
    await proposal.getByRole('button', { name: 'Approve' }).click()
    await proposal.waitFor({ state: 'detached' })
    await eventually(() => fileText(userSkill), (text) => text?.includes('`pnpm install`') ?? false, `${USER_SKILL} to use pnpm`)
  })

  it('answers a new conversation with what it learned', async () => {
    await page.getByRole('button', { name: 'New chat' }).click()
    await send(page, DEMO_PROMPTS[0])
    await page.getByText('You use pnpm, so:').waitFor()
    // The two conversations read apart in the sidebar.
    const list = page.getByRole('navigation', { name: 'Conversations' })
    await list.getByRole('button', { name: /^New Node project, first try with npm/ }).waitFor()
    await list.getByRole('button', { name: /^New Node project, pnpm remembered/ }).waitFor()
  })

  it('opens the new skill\'s diff from the Timeline and reverts the remembered preference', async () => {
    const sections = page.getByRole('navigation', { name: 'Sections' })
    await sections.getByRole('button', { name: 'Timeline' }).click()
    const review = page.getByRole('region', { name: 'Background review' }).first()
    await review.getByRole('article', { name: 'Skill created' }).filter({ hasText: LEARNED_SKILL }).getByRole('button', { name: /View changes/ }).click()
    await page.getByRole('heading', { level: 2, name: LEARNED_SKILL }).waitFor()
    expect(await page.getByRole('table').locator('tr[data-type="add"]').allInnerTexts()).toContainEqual(expect.stringContaining('pnpm init'))

    await sections.getByRole('button', { name: 'Timeline' }).click()
    const memory = page.getByRole('article', { name: 'Memory added' }).filter({ hasText: MEMORY_ENTRY })
    await memory.getByRole('button', { name: 'Revert' }).click()
    await page.getByRole('dialog', { name: 'Revert this change?' }).getByRole('button', { name: 'Revert' }).click()
    await page.getByRole('status').filter({ hasText: 'Change reverted.' }).waitFor()
    await eventually(() => fileText(join(home, 'memories', 'USER.md')) ?? '', (text) => !text.includes(MEMORY_ENTRY), 'USER.md to drop the reverted entry')
  })

  it('stops on a signal and removes its data home', async () => {
    expect(existsSync(home)).toBe(true)
    demo.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(existsSync(home)).toBe(false)
    expect(output).toContain(`Demo stopped; removed ${home}.`)
  })
})
