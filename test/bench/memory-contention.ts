/**
 * Cross-process memory contention: P writer processes × N adds into one MEMORY.md at once, each add a
 * locked read-modify-write plus a ledger row. Prints JSON {processes, addsPerProcess, totalMs,
 * opsPerSecond, lost, ledgerRows}. Usage: `npx tsx test/bench/memory-contention.ts [--processes 4] [--adds 250]`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { openStateDb } from '../../electron/core/db/state-db'
import { ensureHome } from '../../electron/core/config/home'
import { parseEntries, readMemoryText } from '../../electron/core/memory/memory-file'

const repoRoot = resolve(__dirname, '..', '..')
const writerScript = join(repoRoot, 'test', 'helpers', 'memory-writer.ts')

function startWriter(home: string, id: number, adds: number): ChildProcessWithoutNullStreams {
  return spawn(
    process.execPath,
    ['--import', 'tsx', writerScript, '--home', home, '--id', String(id), '--count', String(adds), '--wait-go'],
    { cwd: repoRoot }
  )
}

function waitForLine(child: ChildProcessWithoutNullStreams, wanted: string): Promise<void> {
  return new Promise((resolveLine, reject) => {
    let buffer = ''
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString()
      if (buffer.split('\n').some((line) => line.trim() === wanted)) {
        child.stdout.off('data', onData)
        resolveLine()
      }
    }
    child.stdout.on('data', onData)
    child.once('exit', (code) => reject(new Error(`writer exited (${code}) before '${wanted}'`)))
  })
}

function waitForExit(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolveExit) => child.once('exit', (code) => resolveExit(code)))
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { processes: { type: 'string', default: '4' }, adds: { type: 'string', default: '250' } }
  })
  const processes = Number(values.processes)
  const addsPerProcess = Number(values.adds)
  const home = mkdtempSync(join(tmpdir(), 'cairn-bench-'))
  try {
    const paths = ensureHome(home)
    openStateDb(paths.stateDb).close() // migrate once, outside the timed part
    const writers = Array.from({ length: processes }, (_, id) => startWriter(home, id, addsPerProcess))
    await Promise.all(writers.map((child) => waitForLine(child, 'ready')))
    const exits = writers.map(waitForExit)
    const started = performance.now()
    for (const child of writers) child.stdin.write('go\n')
    const codes = await Promise.all(exits)
    const totalMs = Math.round(performance.now() - started)
    if (codes.some((code) => code !== 0)) throw new Error(`a writer failed: exit codes ${codes.join(', ')}`)

    const entries = parseEntries(readMemoryText(paths.memoryFile))
    const db = openStateDb(paths.stateDb)
    const ledgerRows = (db.prepare("SELECT COUNT(*) AS n FROM ledger WHERE kind = 'memory.add'").get() as { n: number }).n
    db.close()
    const total = processes * addsPerProcess
    console.log(
      JSON.stringify({
        processes,
        addsPerProcess,
        totalMs,
        opsPerSecond: Math.round((total / totalMs) * 1000),
        lost: total - entries.length,
        ledgerRows
      })
    )
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
