import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import type { Device, SyncWorld } from './sync-devices'
import { syncWorld } from './sync-devices'

const AGENT = { source: 'agent' } as const

function skillMd(name: string, lines: string[]): string {
  return `---\nname: ${name}\ndescription: "How to ${name.replace(/-/g, ' ')} the way this user likes it."\n---\n\n${lines.join('\n')}\n`
}

const DEPLOY_LINES = ['# Deploy', '', '1. Run the tests.', '2. Build the image.', '3. Push the image.', '4. Roll out to staging.', '5. Watch the logs.', '6. Roll out to production.', '7. Tell the team.']

function memoryText(device: Device, file = 'MEMORY.md'): string {
  const path = join(device.home, 'memories', file)
  return existsSync(path) ? readFileSync(path, 'utf8') : ''
}

function entries(device: Device, target: 'memory' | 'user' = 'memory'): string[] {
  return device.core.memory.read(target).entries
}

function skillText(device: Device, name: string, category = 'devops'): string {
  return readFileSync(join(device.home, 'skills', category, name, 'SKILL.md'), 'utf8')
}

function pending(device: Device) {
  return new ProposalStore(device.core.db).list({ states: ['pending'] })
}

/** Every file under the synced folders, for checking no sync ever leaves conflict markers behind. */
function syncedFiles(device: Device): string[] {
  const files: string[] = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else files.push(path)
    }
  }
  for (const root of ['memories', 'skills']) if (existsSync(join(device.home, root))) walk(join(device.home, root))
  return files
}

function expectNoConflictMarkers(device: Device): void {
  for (const file of syncedFiles(device)) expect(readFileSync(file, 'utf8'), file).not.toMatch(/^(<{7}|={7}|>{7})( |$)/m)
}

let world: SyncWorld
afterEach(async () => {
  await world?.close()
})

/** Two devices that have synced once: the laptop's memory and deploy skill are on both. */
async function twoDevices(): Promise<{ laptop: Device; desktop: Device }> {
  world = await syncWorld()
  const laptop = await world.device('laptop')
  const desktop = await world.device('desktop')
  await laptop.core.memory.add('memory', 'The user deploys with fly.io.', { write: AGENT })
  await laptop.core.skills.create({ name: 'deploy', category: 'devops', content: skillMd('deploy', DEPLOY_LINES) }, AGENT)
  expect((await laptop.sync()).outcome).toBe('pushed')
  expect((await desktop.sync()).outcome).toBe('pulled')
  return { laptop, desktop }
}

describe('sync between two devices over a real git host', () => {
  it('a device joining gets memory and skills, each change on its timeline with the device it came from', async () => {
    const { laptop, desktop } = await twoDevices()
    expect(entries(desktop)).toEqual(['The user deploys with fly.io.'])
    expect(skillText(desktop, 'deploy')).toBe(skillText(laptop, 'deploy'))
    expect(desktop.core.skills.get('deploy')).not.toBeNull()
    const rows = desktop.core.ledger.list({ limit: 10 })
    expect(rows.map((row) => [row.kind, row.source, row.meta.device])).toEqual(
      expect.arrayContaining([
        ['memory.add', 'sync', 'laptop'],
        ['skill.create', 'sync', 'laptop']
      ])
    )
    // A second sync on either side changes nothing and makes no commit.
    expect((await desktop.sync()).outcome).toBe('up_to_date')
    expect((await laptop.sync()).outcome).toBe('up_to_date')
  })

  it('only memories/ and skills/ reach the remote: the database, config and attachments stay on the device', async () => {
    await twoDevices()
    const files = execFileSync('git', ['-C', world.host.repoPath('team.git'), 'ls-tree', '-r', '--name-only', 'main'], { encoding: 'utf8' }).trim().split('\n')
    expect(files).toEqual(['memories/MEMORY.md', 'skills/devops/deploy/SKILL.md'])
  })

  for (const order of [['laptop', 'desktop'], ['desktop', 'laptop']] as const) {
    it(`both devices learning at once converge with nothing lost or doubled (${order[0]} syncs first)`, async () => {
      const devices = await twoDevices()
      const { laptop, desktop } = devices
      await laptop.core.skills.create({ name: 'release-notes', category: 'devops', content: skillMd('release-notes', ['# Notes', '', 'Write them short.']) }, AGENT)
      expect((await laptop.sync()).outcome).toBe('pushed')
      await desktop.sync()

      // Each device learns on its own: new memory entries, and edits of the same skills.
      await laptop.core.memory.add('memory', 'Laptop: the staging cluster is in Frankfurt.', { write: AGENT })
      await desktop.core.memory.add('memory', 'Desktop: the user reviews pull requests in the morning.', { write: AGENT })
      await desktop.core.memory.add('user', 'Prefers answers in British English.', { write: AGENT })
      const laptopDeploy = DEPLOY_LINES.map((line) => (line === '1. Run the tests.' ? '1. Run the tests and the linter.' : line))
      const desktopDeploy = DEPLOY_LINES.map((line) => (line === '7. Tell the team.' ? '7. Tell the team in #deploys.' : line))
      await laptop.core.skills.edit({ name: 'deploy', content: skillMd('deploy', laptopDeploy) }, AGENT)
      await desktop.core.skills.edit({ name: 'deploy', content: skillMd('deploy', desktopDeploy) }, AGENT)
      await laptop.core.skills.edit({ name: 'release-notes', content: skillMd('release-notes', ['# Notes', '', 'Write them as bullet points.']) }, AGENT)
      await desktop.core.skills.edit({ name: 'release-notes', content: skillMd('release-notes', ['# Notes', '', 'Write them in one paragraph.']) }, AGENT)

      const first = devices[order[0]]
      const second = devices[order[1]]
      expect((await first.sync()).outcome).toBe('pushed')
      const merge = await second.sync()
      expect(merge.outcome).toBe('merged')
      expect(merge.devices).toEqual([first.name])
      expect((await first.sync()).outcome).toBe('pulled')
      expect((await second.sync()).outcome).toBe('up_to_date')

      for (const device of [laptop, desktop]) {
        expect(entries(device).sort()).toEqual(
          ['Desktop: the user reviews pull requests in the morning.', 'Laptop: the staging cluster is in Frankfurt.', 'The user deploys with fly.io.'].sort()
        )
        expect(entries(device, 'user')).toEqual(['Prefers answers in British English.'])
        // Changes that do not overlap merge line by line.
        expect(skillText(device, 'deploy')).toContain('1. Run the tests and the linter.')
        expect(skillText(device, 'deploy')).toContain('7. Tell the team in #deploys.')
        expectNoConflictMarkers(device)
      }
      expect(memoryText(laptop)).toBe(memoryText(desktop))
      expect(skillText(laptop, 'release-notes')).toBe(skillText(desktop, 'release-notes'))

      // The overlapping edit: the merging device keeps its own version and files the other in its Inbox.
      const kept = skillText(second, 'release-notes')
      expect(kept).toContain(second.name === 'laptop' ? 'bullet points' : 'one paragraph')
      const conflict = pending(second).find((proposal) => proposal.target === 'skills/devops/release-notes/SKILL.md')
      expect(conflict).toMatchObject({ kind: 'skill.edit', cause: 'sync_conflict', before: kept })
      expect(conflict?.after).toContain(first.name === 'laptop' ? 'bullet points' : 'one paragraph')
      expect(merge.conflicts).toEqual([expect.objectContaining({ file: 'skills/devops/release-notes/SKILL.md', resolution: 'proposal', proposalId: conflict!.id })])
    })
  }

  it('an entry changed on one device and removed on the other waits in the Inbox instead of being lost', async () => {
    const { laptop, desktop } = await twoDevices()
    await laptop.core.memory.replace('memory', 'fly.io', 'The user deploys with fly.io, region fra.', { write: AGENT })
    await desktop.core.memory.remove('memory', 'fly.io', { write: AGENT })
    await laptop.sync()
    const report = await desktop.sync()
    expect(report.conflicts).toEqual([expect.objectContaining({ file: 'memories/MEMORY.md', resolution: 'proposal' })])
    expect(entries(desktop)).toEqual([])
    expect(pending(desktop)).toEqual([expect.objectContaining({ kind: 'memory.add', after: 'The user deploys with fly.io, region fra.', cause: 'sync_conflict' })])
  })

  it('what no longer fits under the limit after a merge is proposed, never cut', async () => {
    const { laptop, desktop } = await twoDevices()
    for (const device of [laptop, desktop]) await device.core.config.update({ memory: { memoryCharLimit: 100 } })
    await laptop.core.memory.add('memory', 'Laptop: the build cache lives on the NAS in the basement.', { write: AGENT })
    await desktop.core.memory.add('memory', 'Desktop: the user keeps release notes in Notion.', { write: AGENT })
    await laptop.sync()
    const report = await desktop.sync()
    expect(report.overflow).toBe(1)
    expect(entries(desktop)).toEqual(['The user deploys with fly.io.', 'Desktop: the user keeps release notes in Notion.'])
    expect(pending(desktop)).toEqual([expect.objectContaining({ kind: 'memory.add', after: 'Laptop: the build cache lives on the NAS in the basement.', cause: 'sync_overflow' })])
    for (const entry of entries(desktop)) expect(memoryText(desktop)).toContain(entry)
  })

  it('a skill deleted on one device is archived on the other, and a new skill arrives with its files', async () => {
    const { laptop, desktop } = await twoDevices()
    await laptop.core.skills.delete({ name: 'deploy' }, AGENT)
    await laptop.core.skills.create({ name: 'ocr', category: 'docs', content: skillMd('ocr', ['# OCR', '', 'Use tesseract.']) }, AGENT)
    await laptop.core.skills.writeFile({ name: 'ocr', file_path: 'references/languages.md', file_content: 'eng, deu, chi_sim\n' }, AGENT)
    await laptop.sync()
    await desktop.sync()
    expect(desktop.core.skills.get('deploy')).toBeNull()
    expect(readdirSync(join(desktop.home, 'skills', '.archive')).some((name) => name.startsWith('deploy'))).toBe(true)
    expect(readFileSync(join(desktop.home, 'skills', 'docs', 'ocr', 'references', 'languages.md'), 'utf8')).toBe('eng, deu, chi_sim\n')
    expect(desktop.core.skills.get('ocr')).not.toBeNull()
  })

  it('a change a sync brought in can be reverted from the timeline, and the revert syncs back', async () => {
    const { laptop, desktop } = await twoDevices()
    await laptop.core.memory.add('memory', 'The user likes tabs over spaces.', { write: AGENT })
    await laptop.sync()
    await desktop.sync()
    const row = desktop.core.ledger.list({ limit: 5 }).find((entry) => entry.source === 'sync' && entry.after === 'The user likes tabs over spaces.')
    expect(row?.meta.device).toBe('laptop')
    expect(await desktop.core.revert(row!.id)).toMatchObject({ ok: true })
    expect(entries(desktop)).not.toContain('The user likes tabs over spaces.')
    await desktop.sync()
    await laptop.sync()
    expect(entries(laptop)).not.toContain('The user likes tabs over spaces.')
  })
})

describe('the conversation lists a sync can carry (sync.sessionSummaries)', () => {
  it('are off by default; when on, each device sends a list of its own conversations, never the conversations', async () => {
    const { laptop, desktop } = await twoDevices()
    const session = laptop.core.sessions.create({ source: 'desktop', title: 'Moving the blog to fly.io' })
    laptop.core.sessions.append(session.id, { role: 'user', content: 'How do I move my Hugo blog to fly.io with a custom domain?' })
    laptop.core.sessions.append(session.id, { role: 'assistant', content: 'Run fly launch in the blog folder, then fly certs add.' })
    await laptop.sync()
    expect(existsSync(join(world.host.repoPath('team.git'), 'sessions'))).toBe(false)
    expect(execFileSync('git', ['-C', world.host.repoPath('team.git'), 'ls-tree', '-r', '--name-only', 'main'], { encoding: 'utf8' })).not.toContain('sessions/')

    await laptop.core.config.update({ sync: { sessionSummaries: true } })
    await laptop.sync()
    await desktop.sync()
    const list = readFileSync(join(desktop.home, 'sessions', 'laptop.md'), 'utf8')
    expect(list).toContain('## Moving the blog to fly.io')
    expect(list).toContain('2 messages')
    expect(list).toContain('How do I move my Hugo blog to fly.io with a custom domain?')
    expect(list).not.toContain('fly certs add')
    expect(desktop.core.sessions.list().map((record) => record.title)).not.toContain('Moving the blog to fly.io')
    // Nothing new to list: no new commit.
    expect((await laptop.sync()).outcome).toBe('up_to_date')
  })
})
