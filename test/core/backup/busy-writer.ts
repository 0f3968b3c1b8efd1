/**
 * A separate Cairn process writing through the real stores while a backup runs, as a review does:
 * conversation messages, memory entries and their ledger rows, until it reads `stop` on stdin.
 * Run: `node --import tsx test/core/backup/busy-writer.ts --home DIR`. Prints `ready` after its first
 * round, then one JSON line `{rounds, failed}` when it stops.
 */
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { CairnCore } from '../../../electron/core/cairn'
import { writerEntry } from '../../helpers/memory-writer'

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { home: { type: 'string' } } })
  if (!values.home) throw new Error('--home is required')
  const core = await CairnCore.open({ home: values.home })
  let stopping = false
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() === 'stop') stopping = true
  })
  const session = core.sessions.create({ title: 'a conversation a review is learning from' })
  let rounds = 0
  let failed = 0
  while (!stopping) {
    core.sessions.appendMany(session.id, [
      { role: 'user', content: `Round ${rounds}: which port does the staging proxy use? ${'detail '.repeat(50)}` },
      { role: 'assistant', content: `Round ${rounds}: port 8443, behind the VPN. ${'explanation '.repeat(50)}` }
    ])
    const added = await core.memory.add('memory', writerEntry(7, rounds), { write: { source: 'review', sessionId: session.id } })
    if (!added.success) failed++
    if (rounds++ === 0) process.stdout.write('ready\n')
  }
  await core.close()
  process.stdout.write(JSON.stringify({ rounds, failed }) + '\n')
  process.exit(0)
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`)
  process.exit(1)
})
