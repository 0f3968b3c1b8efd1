import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { CairnCore } from '../../electron/core/cairn'
import { SCREENSHOTS, startE2E, type E2E } from './fixture'

const NARROW = { width: 640, height: 1000 }

/** A full USER.md (so an add overflowed) and an archive holding each kind of entry, one hidden. */
async function seed(core: CairnCore): Promise<void> {
  const agent = { write: { source: 'agent' as const } }
  await core.memory.add('user', 'Prefers short answers with the code first', agent)
  await core.memory.add('memory', 'The staging server is deployed with make deploy-staging', agent)
  await core.memory.replace('memory', 'make deploy-staging', 'Staging deploys with make stage since the new Makefile', agent)
  core.archive.add({ target: 'user', text: 'Keeps a vegetable garden and grows tomatoes every summer', source: 'overflow', write: agent.write })
  core.archive.add({ target: 'user', text: '每周五部署生产环境，部署前要跑完整测试', source: 'retired' })
  const hidden = core.archive.add({ target: 'user', text: 'Once lived in Porto for a year', source: 'retired' })
  if (hidden.kind === 'added') core.archive.setHidden(hidden.entry.id, true)
}

const opened: E2E[] = []
afterAll(async () => {
  for (const e2e of opened) await e2e.close()
})

describe('the Memory screen’s archive (browser mode)', () => {
  it.each([
    ['en', 'Memory', 'Archive', 'Search memory and the archive'],
    ['zh-CN', '记忆', '归档', '搜索记忆和归档']
  ] as const)('shows the archive and searches it at 640 px, light and dark (%s)', async (language, nav, title, searchLabel) => {
    const e2e = await startE2E({ seed, config: { ui: { language } } })
    opened.push(e2e)
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await e2e.newPage({ viewport: NARROW, colorScheme })
      await page.goto(e2e.url)
      await page.getByRole('button', { name: nav, exact: true }).first().click()
      const archive = page.getByRole('region', { name: new RegExp(`^${title}`) })
      await archive.getByText('Keeps a vegetable garden').waitFor()
      await archive.scrollIntoViewIfNeeded()
      await archive.screenshot({ path: join(SCREENSHOTS, `memory-archive-${language}-${colorScheme}.png`), animations: 'disabled', caret: 'hide' })
      // Reachable by keyboard: the search box takes the focus and typing searches.
      const box = page.getByRole('searchbox', { name: searchLabel })
      await box.focus()
      await page.keyboard.type(language === 'en' ? 'tomatoes' : '部署')
      const results = page.getByRole('region', { name: searchLabel })
      await results.getByText(language === 'en' ? 'Keeps a vegetable garden' : '每周五部署生产环境').first().waitFor()
      await box.scrollIntoViewIfNeeded()
      await page.screenshot({ path: join(SCREENSHOTS, `memory-search-${language}-${colorScheme}.png`), animations: 'disabled', caret: 'hide' })
      await page.context().close()
    }
    expect(e2e.pageErrors).toEqual([])
  })
})
