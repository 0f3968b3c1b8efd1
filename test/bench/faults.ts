/**
 * Fault loops for memory and skills, with real processes writing through the real stores
 * (test/core/ledger/fault-child.ts). Prints one JSON object of counts. `npm run bench:faults -- [--kills 50]
 * [--skill-kills 50] [--pauses 4] [--stale-ms 2000]`.
 *
 * - memoryKills: a writer adding entries is SIGKILLed at a random moment, then a core is opened (which
 *   reconciles the ledger): entries on disk with no committed row (`unrecorded`), committed rows whose entry
 *   is not on disk (`phantom`), rows left pending, torn entries, temp files left in memories/.
 * - skillKills: the same for a writer creating and patching skills: skill files whose text is not the
 *   `after` of their newest committed row, rows pointing at a different text, temp files left on disk or
 *   listed by skill_view.
 * - pausedHolder: a writer is SIGSTOPped holding the memory lock (by the fault hook; at a random moment on
 *   a checkout without it), another process adds and confirms an entry, the first is resumed: confirmed
 *   entries that vanished (`lost`), and rows and entries that disagree.
 * The same script runs against an older checkout for before/after figures (it only uses APIs both have).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { CairnCore } from '../../electron/core/cairn'
import { ensureHome, type HomePaths } from '../../electron/core/config/home'
import { openStateDb } from '../../electron/core/db/state-db'
import { runChild, until, type ChildRun } from '../core/ledger/fault-rig'

const TEMP = /(\.\d{6,10}|\.cairn-\d+-\d+\.tmp)$/
const entryPattern = /^writer (\d+)$/

function freshHome(): { home: string; paths: HomePaths } {
  const home = mkdtempSync(join(tmpdir(), 'cairn-faults-'))
  const paths = ensureHome(home)
  openStateDb(paths.stateDb).close()
  return { home, paths }
}

const entriesOf = (path: string): string[] =>
  existsSync(path) ? readFileSync(path, 'utf8').split('\n§\n').map((entry) => entry.trim()).filter(Boolean) : []

async function kill(run: ChildRun): Promise<void> {
  run.child.kill('SIGKILL')
  await run.done
}

/** Rows the reconciliation left unsettled (0 on a checkout without pending rows). */
function pendingRows(core: CairnCore): number {
  const ledger = core.ledger as unknown as { unsettled?: () => unknown[] }
  return typeof ledger.unsettled === 'function' ? ledger.unsettled().length : 0
}

async function memoryKills(runs: number) {
  const counts = { runs, unrecorded: 0, phantom: 0, pendingLeft: 0, torn: 0, tempFilesLeft: 0, runsWithDrift: 0 }
  for (let run = 0; run < runs; run++) {
    const { home, paths } = freshHome()
    const writer = runChild(home, 'memory-loop', { prefix: 'writer', count: 1_000_000 })
    const target = 1 + Math.floor(Math.random() * 25)
    await until(() => entriesOf(paths.memoryFile).length >= target, 'the writer to add entries', 60_000)
    await kill(writer)
    const core = await CairnCore.open({ home })
    const entries = entriesOf(paths.memoryFile)
    const rows = core.ledger.list({ limit: 10_000, kinds: ['memory.add'] }).map((row) => row.after)
    const unrecorded = entries.filter((entry) => !rows.includes(entry)).length
    const phantom = rows.filter((after) => after !== null && !entries.includes(after)).length
    counts.unrecorded += unrecorded
    counts.phantom += phantom
    counts.pendingLeft += pendingRows(core)
    counts.torn += entries.filter((entry) => !entryPattern.test(entry)).length
    counts.tempFilesLeft += readdirSync(paths.memoriesDir).filter((name) => TEMP.test(name)).length
    if (unrecorded + phantom > 0) counts.runsWithDrift++
    await core.close()
    rmSync(home, { recursive: true, force: true })
  }
  return counts
}

function skillFiles(skillsDir: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const name of existsSync(skillsDir) ? readdirSync(skillsDir) : []) {
    const path = join(skillsDir, name, 'SKILL.md')
    if (name.startsWith('loop-') && existsSync(path)) files.set(`skills/${name}/SKILL.md`, readFileSync(path, 'utf8'))
  }
  return files
}

async function skillKills(runs: number) {
  const counts = { runs, unrecorded: 0, phantom: 0, pendingLeft: 0, tempFilesLeft: 0, tempFilesListed: 0, runsWithDrift: 0 }
  for (let run = 0; run < runs; run++) {
    const { home, paths } = freshHome()
    const writer = runChild(home, 'skill-loop', { count: 1_000_000 })
    const target = 1 + Math.floor(Math.random() * 12)
    await until(() => existsSync(paths.skillsDir) && readdirSync(paths.skillsDir).length >= target, 'the writer to create skills', 60_000)
    await kill(writer)
    const core = await CairnCore.open({ home })
    const files = skillFiles(paths.skillsDir)
    const newest = new Map<string, string | null>()
    for (const row of core.ledger.list({ limit: 10_000 })) if (!newest.has(row.target)) newest.set(row.target, row.after)
    let unrecorded = 0
    let phantom = 0
    for (const [target, text] of files) if (newest.get(target) !== text) unrecorded++
    for (const [target, after] of newest) if (after !== null && files.get(target) !== after) phantom++
    counts.unrecorded += unrecorded
    counts.phantom += phantom
    counts.pendingLeft += pendingRows(core)
    for (const name of readdirSync(paths.skillsDir)) {
      counts.tempFilesLeft += readdirSync(join(paths.skillsDir, name)).filter((file) => TEMP.test(file)).length
      const viewed = core.skills.view(name, null, null, false) as { linked_files?: Record<string, string[]> }
      counts.tempFilesListed += Object.values(viewed.linked_files ?? {}).flat().filter((file) => TEMP.test(file)).length
    }
    if (unrecorded + phantom > 0) counts.runsWithDrift++
    await core.close()
    rmSync(home, { recursive: true, force: true })
  }
  return counts
}

async function pausedHolder(runs: number, staleMs: number) {
  const counts = { runs, pausedHoldingLock: 0, confirmed: 0, lost: 0, rowsWithoutEntry: 0, entriesWithoutRow: 0 }
  const env = { CAIRN_LOCK_STALE_MS: String(staleMs) }
  for (let run = 0; run < runs; run++) {
    const { home, paths } = freshHome()
    const target = 3 + Math.floor(Math.random() * 10)
    const mark = join(home, 'paused')
    // Where the fault hook exists the writer stops itself inside the lock, right before writing its n-th
    // file; a checkout without it is stopped at a random moment instead (often, not always, holding the lock).
    const writer = runChild(home, 'memory-loop', { prefix: 'writer', count: 1_000_000 }, {
      ...env,
      CAIRN_FAULT: `before-write:stop:MEMORY.md:${target}`,
      CAIRN_FAULT_MARK: mark
    })
    await until(() => existsSync(mark) || entriesOf(paths.memoryFile).length > target, 'the writer to add entries', 60_000)
    writer.child.kill('SIGSTOP')
    if (existsSync(`${paths.memoryFile}.lock`)) counts.pausedHoldingLock++
    // Blocks until the paused writer's lock is stale, then takes it over.
    const other = await runChild(home, 'memory-add', { content: 'confirmed by another process' }, env).done
    const confirmed = JSON.parse(other.stdout.trim().split('\n').pop() ?? '{}').success === true
    writer.child.kill('SIGCONT')
    const own = () => entriesOf(paths.memoryFile).filter((entry) => entryPattern.test(entry)).length
    const seen = own()
    await until(() => own() >= seen + 2 || writer.child.exitCode !== null, 'the resumed writer to go on', 60_000)
    await kill(writer)
    const core = await CairnCore.open({ home })
    const entries = entriesOf(paths.memoryFile)
    const rows = core.ledger.list({ limit: 10_000, kinds: ['memory.add'] }).map((row) => row.after)
    if (confirmed) {
      counts.confirmed++
      if (!entries.includes('confirmed by another process')) counts.lost++
    }
    counts.rowsWithoutEntry += rows.filter((after) => after !== null && !entries.includes(after)).length
    counts.entriesWithoutRow += entries.filter((entry) => !rows.includes(entry)).length
    await core.close()
    rmSync(home, { recursive: true, force: true })
  }
  return counts
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kills: { type: 'string', default: '50' },
      'skill-kills': { type: 'string', default: '50' },
      pauses: { type: 'string', default: '4' },
      'stale-ms': { type: 'string', default: '2000' }
    }
  })
  const started = performance.now()
  // Kills in this process's own writes (the core's revert, reconcile) take dead writers' locks over quickly too.
  process.env.CAIRN_LOCK_STALE_MS = values['stale-ms']
  const result = {
    memoryKills: await memoryKills(Number(values.kills)),
    skillKills: await skillKills(Number(values['skill-kills'])),
    pausedHolder: await pausedHolder(Number(values.pauses), Number(values['stale-ms'])),
    totalMs: 0
  }
  result.totalMs = Math.round(performance.now() - started)
  process.stdout.write(JSON.stringify(result, null, 2) + '\n')
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`)
  process.exit(1)
})
