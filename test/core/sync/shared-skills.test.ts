import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { proposeToLibrary, runSync, sharedLibraries, SyncError } from '../../../electron/core/sync'
import { syncWorld, type SyncWorld } from './sync-devices'

let world: SyncWorld
const dirs: string[] = []
afterEach(async () => {
  await world?.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function skillMd(name: string, body: string): string {
  return `---\nname: ${name}\ndescription: "The team's way to ${name.replace(/-/g, ' ')}."\n---\n\n${body}\n`
}

/** The team's library as its maintainer keeps it: a working copy pushed with the git CLI. */
function teamLibrary(url: string) {
  const work = mkdtempSync(join(tmpdir(), 'cairn-team-lib-'))
  dirs.push(work)
  const git = (...args: string[]) => execFileSync('git', ['-C', work, '-c', 'user.name=Maintainer', '-c', 'user.email=m@example.com', ...args], { encoding: 'utf8' })
  git('init', '--quiet', '-b', 'main')
  git('remote', 'add', 'origin', url)
  return {
    write(path: string, text: string) {
      mkdirSync(join(work, path, '..'), { recursive: true })
      writeFileSync(join(work, path), text)
    },
    publish(message: string) {
      git('add', '-A')
      git('commit', '--quiet', '-m', message)
      git('push', '--quiet', 'origin', 'main')
    }
  }
}

describe('team skill libraries (skills.shared)', () => {
  it('pulls a library into its own read-only root, and updates it on the next sync', async () => {
    world = await syncWorld()
    await world.host.createBareRepo('team-skills.git')
    const library = teamLibrary(world.host.url('team-skills.git'))
    library.write('release/cut-release/SKILL.md', skillMd('cut-release', '# Cut a release\n\nTag from main.'))
    library.write('release/cut-release/references/checklist.md', '- changelog\n')
    library.publish('First skills')

    const device = await world.device('laptop')
    await device.core.config.update({ sync: { remote: '' }, skills: { shared: [{ url: world.host.url('team-skills.git') }] } })
    const first = await runSync(device.core, { token: null })
    expect(first.shared).toEqual([expect.objectContaining({ name: 'team-skills', outcome: 'cloned', skills: ['cut-release'] })])
    const skill = device.core.skills.get('cut-release')
    expect(skill).toMatchObject({ readOnly: true })
    expect(skill?.path).toBe(join(device.home, 'shared-skills', 'team-skills', 'release', 'cut-release', 'SKILL.md'))
    // Read-only: learning and the user change the team's library through its maintainers, not here.
    expect((await device.core.skills.edit({ name: 'cut-release', content: skillMd('cut-release', 'changed') }, { source: 'agent' })).success).toBe(false)

    expect((await runSync(device.core, { token: null })).shared[0]).toMatchObject({ outcome: 'up_to_date', skills: [] })
    library.write('release/cut-release/SKILL.md', skillMd('cut-release', '# Cut a release\n\nTag from main, then announce it.'))
    library.write('ops/rotate-keys/SKILL.md', skillMd('rotate-keys', '# Rotate keys\n\nEvery 90 days.'))
    library.publish('Announce releases; rotate keys')
    const second = await runSync(device.core, { token: null })
    expect(second.shared[0]).toMatchObject({ outcome: 'updated', skills: ['cut-release', 'rotate-keys'] })
    expect(device.core.skills.view('cut-release', null, null, false)).toMatchObject({ success: true })
    expect(JSON.stringify(device.core.skills.view('cut-release', null, null, false))).toContain('then announce it')
    expect(device.core.skills.get('rotate-keys')).toMatchObject({ readOnly: true })
  })

  it('the personal sync token never goes to a library on another host; a library there without its own token fails', async () => {
    world = await syncWorld({ token: 'sync-secret-token' })
    const device = await world.device('laptop')
    // Another host, asking for credentials and keeping whatever it is sent.
    const seen: string[] = []
    const other = createServer((request, response) => {
      seen.push(String(request.headers.authorization ?? ''))
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="team"' }).end()
    })
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    try {
      const port = (other.address() as AddressInfo).port
      await device.core.config.update({ skills: { shared: [{ url: `http://127.0.0.1:${port}/team/skills.git`, name: 'elsewhere' }] } })
      const report = await runSync(device.core, { token: 'sync-secret-token' })
      expect(report.outcome).toBe('up_to_date') // the personal sync used its token (an empty home: nothing to send)
      expect(report.shared).toEqual([expect.objectContaining({ name: 'elsewhere', outcome: 'failed' })])
      expect(seen.length).toBeGreaterThan(0)
      expect(seen.join(' ')).not.toContain(Buffer.from('cairn:sync-secret-token').toString('base64'))
      expect(seen.every((header) => header === '')).toBe(true)
      // Its own token does go to it.
      const own = await runSync(device.core, { token: 'sync-secret-token', sharedToken: (name) => (name === 'elsewhere' ? 'team-token' : null) })
      expect(own.shared[0].outcome).toBe('failed')
      expect(seen.at(-1)).toBe(`Basic ${Buffer.from('cairn:team-token').toString('base64')}`)
    } finally {
      await new Promise((resolve) => other.close(resolve))
    }
  })

  it('a library that cannot be pulled is reported by name while the personal sync still happens', async () => {
    world = await syncWorld()
    const device = await world.device('laptop')
    await device.core.memory.add('memory', 'The user deploys with fly.io.', { write: { source: 'agent' } })
    await device.core.config.update({ skills: { shared: [{ url: world.host.url('missing.git'), name: 'gone' }] } })
    const report = await runSync(device.core, { token: null })
    expect(report.outcome).toBe('pushed')
    expect(report.shared).toEqual([expect.objectContaining({ name: 'gone', outcome: 'failed', error: expect.objectContaining({ code: expect.any(String) }) })])
    expect(device.core.skills.list().some((skill) => skill.path.includes('shared-skills'))).toBe(false)
  })

  it('a maintainer shares one of this device\'s skills with the library as a branch, never a push to its main', async () => {
    world = await syncWorld()
    await world.host.createBareRepo('team-skills.git')
    const url = world.host.url('team-skills.git')
    const library = teamLibrary(url)
    library.write('release/cut-release/SKILL.md', skillMd('cut-release', '# Cut a release\n\nTag from main.'))
    library.publish('First skills')
    const bare = (...args: string[]) => execFileSync('git', ['-C', world.host.repoPath('team-skills.git'), ...args], { encoding: 'utf8' }).trim()
    const mainBefore = bare('rev-parse', 'main')

    const device = await world.device('laptop')
    await device.core.config.update({ sync: { remote: '' }, skills: { shared: [{ url, writable: false }] } })
    await runSync(device.core, { token: null })
    // A skill this device learned, worth sharing with the team.
    await device.core.skills.create({ name: 'announce-release', category: 'release', content: skillMd('announce-release', '# Announce a release\n\nPost it in #releases.') }, { source: 'agent' })
    await device.core.skills.writeFile({ name: 'announce-release', file_path: 'references/checklist.md', file_content: '- changelog\n- announcement\n' }, { source: 'agent' })

    const refused = await proposeToLibrary(device.core, { skill: 'announce-release', token: null }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(SyncError)
    expect((refused as SyncError).message).toContain('"writable": true')

    await device.core.config.update({ skills: { shared: [{ url, writable: true }] } })
    // The memory provider's key and folders (issue 28) sit in the home: none of it may go with the skill.
    writeFileSync(join(device.home, 'secrets.json'), JSON.stringify({ memoryProvider: 'm0-key-velvetcrane' }))
    for (const folder of ['mem0', 'memory-provider']) {
      mkdirSync(join(device.home, folder), { recursive: true })
      writeFileSync(join(device.home, folder, 'log.json'), 'velvetcrane')
    }
    const proposal = await proposeToLibrary(device.core, { skill: 'announce-release', token: null, now: new Date(Date.UTC(2026, 11, 1, 14, 5)) })
    expect(proposal).toMatchObject({ library: 'team-skills', branch: 'cairn/laptop/announce-release-20261201-1405', folder: 'release/announce-release' })
    expect(bare('rev-parse', 'main')).toBe(mainBefore)
    expect(bare('show', `${proposal.branch}:release/announce-release/SKILL.md`)).toContain('Post it in #releases')
    expect(bare('show', `${proposal.branch}:release/announce-release/references/checklist.md`)).toBe('- changelog\n- announcement')
    expect(bare('show', `${proposal.branch}:release/cut-release/SKILL.md`)).toContain('Tag from main')
    expect(bare('log', '-1', '--format=%an %s', proposal.branch)).toBe('laptop Propose announce-release from laptop')
    expect(bare('ls-tree', '-r', '--name-only', proposal.branch).split('\n').sort()).toEqual(['release/announce-release/SKILL.md', 'release/announce-release/references/checklist.md', 'release/cut-release/SKILL.md'])
    expect(() => bare('grep', '-q', 'velvetcrane', proposal.branch)).toThrow()
  })

  it('checks each listed library on its own', () => {
    const { libraries, problems } = sharedLibraries([
      'https://git.example.com/team/skills.git',
      { url: 'https://git.example.com/ops/runbooks', name: 'ops', writable: true },
      { url: 'https://git.example.com/other/skills.git' },
      { name: 'no-url' }
    ])
    expect(libraries.map((library) => [library.name, library.branch, library.writable])).toEqual([
      ['skills', 'main', false],
      ['ops', 'main', true]
    ])
    expect(problems).toEqual([expect.stringContaining('"skills" is listed twice'), expect.stringContaining('skills.shared[3]: url')])
  })
})
