/**
 * A separate Cairn process that adds memory entries, for the concurrency tests and the contention
 * benchmark. Run: `node --import tsx test/helpers/memory-writer.ts --home DIR --id 0 --count 250`.
 *
 * Options: `--limit N` (memory char limit), `--wait-go` (print `ready`, then wait for a `go` line on
 * stdin so several writers start together). Entries are `writer <id> entry <i>: …`. On exit it prints
 * one JSON line `{id, added, failed, errors}`.
 */
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { openStateDb } from '../../electron/core/db/state-db'
import { ensureHome } from '../../electron/core/config/home'
import { Ledger } from '../../electron/core/ledger/ledger'
import { MemoryStore } from '../../electron/core/memory'

export function writerEntry(id: number, index: number): string {
  return `writer ${id} entry ${index}: prefers tabs over spaces in project ${id * 1000 + index}`
}

/** Matches exactly the entries {@link writerEntry} makes, so a torn or merged entry never passes. */
export const writerEntryPattern = /^writer (\d+) entry (\d+): prefers tabs over spaces in project (\d+)$/

async function waitForGo(): Promise<void> {
  const lines = createInterface({ input: process.stdin })
  for await (const line of lines) {
    if (line.trim() === 'go') break
  }
  lines.close()
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      home: { type: 'string' },
      id: { type: 'string', default: '0' },
      count: { type: 'string', default: '250' },
      limit: { type: 'string', default: '1000000' },
      'wait-go': { type: 'boolean', default: false }
    }
  })
  if (!values.home) throw new Error('--home is required')
  const id = Number(values.id)
  const count = Number(values.count)
  const paths = ensureHome(values.home)
  const db = openStateDb(paths.stateDb)
  const store = new MemoryStore({
    dataHome: paths.root,
    dir: paths.memoriesDir,
    memoryCharLimit: Number(values.limit),
    userCharLimit: 1375,
    recorder: new Ledger(db),
    lockTimeoutMs: 120_000
  })
  if (values['wait-go']) {
    process.stdout.write('ready\n')
    await waitForGo()
  }
  let added = 0
  const errors: string[] = []
  for (let i = 0; i < count; i++) {
    const result = await store.add('memory', writerEntry(id, i), { write: { source: 'agent', sessionId: `writer-${id}` } })
    if (result.success) added++
    else errors.push(result.error)
  }
  db.close()
  process.stdout.write(JSON.stringify({ id, added, failed: errors.length, errors: errors.slice(0, 5) }) + '\n')
}

// Only when run as a script; tests import the entry helpers above.
if (process.argv[1] && /memory-writer\.ts$/.test(process.argv[1])) {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`)
    process.exit(1)
  })
}
