/**
 * Sync of a large skill library between two devices over a real git host (git http-backend in its own
 * process): a laptop with 1,000 skills (a SKILL.md and a reference file each) sets up sync, a desktop
 * joins, then 10 skills change on one side, then 10 on each side at once. Prints JSON with the time of
 * each sync, what it moved, and the size of the git copy.
 *
 *   npm run bench:sync [-- --skills 1000 --changed 10]
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CairnCore } from '../../electron/core/cairn'
import { runSync, type SyncProgress, type SyncReport } from '../../electron/core/sync'
import { startGitHost } from '../support/git-host'

const args = process.argv.slice(2)
const option = (name: string, fallback: number): number => Number(args[args.indexOf(`--${name}`) + 1]) || fallback
const skillCount = option('skills', 1000)
const changed = option('changed', 10)

function skillMd(index: number, note = ''): string {
  const lines = Array.from({ length: 30 }, (_, line) => `${line + 1}. Step ${line + 1} of task ${index}: check the output before going on.`)
  return `---\nname: task-${index}\ndescription: "How to run task ${index} the way this team does it."\n---\n\n# Task ${index}\n\n${lines.join('\n')}\n${note}`
}

function seedSkills(home: string): void {
  for (let index = 0; index < skillCount; index++) {
    const dir = join(home, 'skills', `area-${index % 20}`, `task-${index}`)
    mkdirSync(join(dir, 'references'), { recursive: true })
    writeFileSync(join(dir, 'SKILL.md'), skillMd(index))
    writeFileSync(join(dir, 'references', 'notes.md'), `Notes for task ${index}.\n`)
  }
}

function sizeOf(dir: string): number {
  let total = 0
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    const stats = statSync(path)
    total += stats.isDirectory() ? sizeOf(path) : stats.size
  }
  return total
}

async function timed(label: string, run: (onProgress: (progress: SyncProgress) => void) => Promise<SyncReport>, results: Record<string, unknown>[]): Promise<void> {
  const started = performance.now()
  const phases: Record<string, number> = {}
  let phase = 'start'
  let since = started
  const report = await run((progress) => {
    if (progress.phase === phase) return
    const now = performance.now()
    phases[phase] = Math.round(now - since)
    ;[phase, since] = [progress.phase, now]
  })
  const ms = Math.round(performance.now() - started)
  phases[phase] = Math.round(performance.now() - since)
  delete phases.start
  results.push({ step: label, ms, phases, outcome: report.outcome, sent: report.sent, received: report.received, conflicts: report.conflicts.length })
  process.stderr.write(`${label}: ${ms} ms (${report.outcome}, sent ${report.sent}, received ${report.received}) ${JSON.stringify(phases)}\n`)
}

async function main(): Promise<void> {
  const host = await startGitHost()
  const homes = [mkdtempSync(join(tmpdir(), 'cairn-bench-laptop-')), mkdtempSync(join(tmpdir(), 'cairn-bench-desktop-'))]
  const cores: CairnCore[] = []
  try {
    await host.createBareRepo('bench.git')
    seedSkills(homes[0])
    const [laptop, desktop] = await Promise.all(homes.map((home) => CairnCore.open({ home })))
    cores.push(laptop, desktop)
    for (const [core, name] of [[laptop, 'laptop'], [desktop, 'desktop']] as const) await core.config.update({ sync: { remote: host.url('bench.git'), deviceName: name } })
    const sync = (core: CairnCore) => (onProgress: (progress: SyncProgress) => void) => runSync(core, { token: null, onProgress })
    const results: Record<string, unknown>[] = []

    await timed(`first sync, ${skillCount} skills sent`, sync(laptop), results)
    await timed(`device joins, ${skillCount} skills come in`, sync(desktop), results)
    await timed('nothing changed', sync(laptop), results)
    for (let index = 0; index < changed; index++) await laptop.skills.edit({ name: `task-${index}`, content: skillMd(index, 'Laptop: log the run.\n') }, { source: 'agent' })
    await timed(`${changed} changed here, sent`, sync(laptop), results)
    await timed(`${changed} changed there, brought in`, sync(desktop), results)
    for (let index = 0; index < changed; index++) {
      await laptop.skills.edit({ name: `task-${100 + index}`, content: skillMd(100 + index, 'Laptop again.\n') }, { source: 'agent' })
      await desktop.skills.edit({ name: `task-${200 + index}`, content: skillMd(200 + index, 'Desktop too.\n') }, { source: 'agent' })
    }
    await timed(`${changed} changed on each side: first sends`, sync(laptop), results)
    await timed(`${changed} changed on each side: second merges`, sync(desktop), results)
    await timed('first brings the merge in', sync(laptop), results)
    console.log(
      JSON.stringify(
        {
          skills: skillCount,
          files: skillCount * 2,
          changed,
          results,
          gitCopyBytes: sizeOf(join(homes[0], 'sync', 'git')),
          remoteBytes: sizeOf(host.repoPath('bench.git'))
        },
        null,
        2
      )
    )
  } finally {
    for (const core of cores) await core.close()
    await host.close()
    for (const home of homes) rmSync(home, { recursive: true, force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
