/**
 * A separate Cairn process writing through the real stores, for the fault tests and `npm run bench:faults`.
 * Run: `node --import tsx test/core/ledger/fault-child.ts <home> <action> '<json>'`; prints one JSON line
 * (the store's result) and exits 0. Faults come from the environment: `CAIRN_FAULT` / `CAIRN_FAULT_MARK`
 * (stop or kill at an atomic write, see electron/core/fs/atomic.ts) and `CAIRN_LOCK_STALE_MS`.
 *
 * Actions: `memory-add` {target?, content}; `memory-loop` {prefix, count} (adds `<prefix> <i>` one by one);
 * `skill-create` {name, content, category?}; `skill-patch` {name, old_string, new_string};
 * `skill-loop` {count} (creates `loop-<i>` and patches it); `config-update` {patch}; `revert` {id} (any ledger row).
 */
import { ConfigStore } from '../../../electron/core/config/config-store'
import { ensureHome } from '../../../electron/core/config/home'
import { openStateDb } from '../../../electron/core/db/state-db'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { revertLedgerEntry } from '../../../electron/core/ledger/revert'
import { MemoryStore } from '../../../electron/core/memory'
import { SkillStore } from '../../../electron/core/skills'

export const loopSkillText = (i: number, step: string) => `---\nname: loop-${i}\ndescription: Loop skill ${i}\n---\n# Steps\n- ${step}\n`

async function main(): Promise<void> {
  const [home, action, payload = '{}'] = process.argv.slice(2)
  const args = JSON.parse(payload) as Record<string, any>
  const paths = ensureHome(home)
  if (action === 'config-update') {
    const result = await new ConfigStore(paths.configFile).update(args.patch)
    process.stdout.write(JSON.stringify({ success: true, config: result }) + '\n')
    return
  }
  const db = openStateDb(paths.stateDb)
  const ledger = new Ledger(db)
  const write = { source: 'agent' as const, sessionId: `child-${process.pid}` }
  let result: unknown
  const memoryStore = () =>
    new MemoryStore({ dataHome: paths.root, dir: paths.memoriesDir, memoryCharLimit: 1_000_000, userCharLimit: 1_000_000, recorder: ledger, lockTimeoutMs: 60_000 })
  const skillStore = () => {
    const skills = new SkillStore({ dataHome: paths.root, skillsDir: paths.skillsDir, extraDirs: [], locksDir: paths.locksDir, db, recorder: ledger })
    skills.load()
    return skills
  }
  if (action === 'revert') {
    result = await revertLedgerEntry(ledger, { memory: memoryStore(), skills: skillStore() }, args.id)
  } else if (action.startsWith('memory-')) {
    const memory = memoryStore()
    if (action === 'memory-add') result = await memory.add(args.target ?? 'memory', args.content, { write })
    else {
      let added = 0
      for (let i = 0; i < args.count; i++) if ((await memory.add('memory', `${args.prefix} ${i}`, { write })).success) added++
      result = { success: true, added }
    }
  } else {
    const skills = skillStore()
    if (action === 'skill-create') result = await skills.create(args as any, write)
    else if (action === 'skill-patch') result = await skills.patch(args as any, write)
    else {
      let done = 0
      for (let i = 0; i < args.count; i++) {
        const created = await skills.create({ name: `loop-${i}`, content: loopSkillText(i, 'first') }, write)
        const patched = await skills.patch({ name: `loop-${i}`, old_string: '- first', new_string: '- second' }, write)
        if (created.success && patched.success) done++
      }
      result = { success: true, done }
    }
  }
  db.close()
  process.stdout.write(JSON.stringify(result) + '\n')
}

if (process.argv[1] && /fault-child\.ts$/.test(process.argv[1])) {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`)
    process.exit(1)
  })
}
