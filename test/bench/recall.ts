/**
 * The recall step's cost per turn (issue 28): the built-in provider over the real archive of a fresh data
 * home (`MemoryArchive`, state.db's FTS5) holding 100,000 entries, asked for each user
 * message the way a turn asks at its start (`MemoryRecall.forTurn`: search, the strong-match filter,
 * the fenced block, marking what was offered). Messages are a mix: some about archived facts (they
 * recall), most about anything else (they recall nothing). Prints JSON with p50/p95/max in ms.
 *
 * Entries name a subject, a place and a fact. `--subjects` sets how many subjects there are (default
 * 1,000, so each is in 100 entries, each of the 200 places in 500): a life's archive has many topics.
 * `--subjects 20` is the worst case, where every subject is in 5,000 entries and the archive's search
 * walks that many postings per word.
 *
 *   npm run bench:recall [-- --rows 100000 --turns 2000 --subjects 1000]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { CairnCore } from '../../electron/core/cairn'
import { archiveWordsOf } from '../../electron/core/memory/archive-query'
import { BuiltinMemoryProvider } from '../../electron/core/recall/builtin-provider'
import { MemoryRecall } from '../../electron/core/recall/memory-recall'

const { values } = parseArgs({ options: { rows: { type: 'string', default: '100000' }, turns: { type: 'string', default: '2000' }, subjects: { type: 'string', default: '1000' } } })
const ROWS = Number(values.rows)
const TURNS = Number(values.turns)

const WORDS = ['deploy', 'invoice', 'garden', 'backup', 'printer', 'passport', 'database', 'kubernetes', 'recipe', 'dentist', 'guitar', 'mortgage', 'router', 'vaccine', 'ticket', 'laptop', 'budget', 'holiday', 'compiler', 'newsletter']
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tu', 'vash', 'zo', 'pel', 'dri', 'quon']
/** Made-up words after the real ones, so there are as many distinct names as asked for. */
const named = (count: number, offset: number) =>
  Array.from({ length: count }, (_, i) => WORDS[i + offset] ?? `${SYLLABLES[i % 10]}${SYLLABLES[Math.floor(i / 10) % 10]}${SYLLABLES[Math.floor(i / 100) % 10]}${offset ? 'ia' : 'on'}`)
const SUBJECTS = named(Number(values.subjects), 0)
const PLACES = ['staging', 'production', 'kitchen', 'office', 'garage', 'cloud', 'basement', 'studio', 'branch', 'clinic', ...named(190, 1000).slice(10)]
const FACTS = ['runs every Thursday', 'needs the blue key', 'is renewed in March', 'uses port 8443', 'goes through the VPN', 'was moved last spring', 'is owned by Priya', 'costs 40 euros a month', 'expires after 90 days', 'is kept in the top drawer']

/** A deterministic archive entry: subject, place, fact, and a serial word so entries differ. */
function entry(i: number): string {
  const subject = SUBJECTS[i % SUBJECTS.length]
  const place = PLACES[Math.floor(i / SUBJECTS.length) % PLACES.length]
  const fact = FACTS[Math.floor(i / (SUBJECTS.length * PLACES.length)) % FACTS.length]
  return `The ${subject} in the ${place} ${fact} (note w${i.toString(36)})`
}

/** A user message: every fourth one about an archived subject and place, the rest small talk or other work. */
function message(i: number): string {
  if (i % 4 === 0) return `How does the ${SUBJECTS[i % SUBJECTS.length]} in the ${PLACES[i % PLACES.length]} work again?`
  const other = ['Can you summarise this paragraph for me?', 'Write a haiku about autumn rain.', 'What is the capital of Australia?', 'Refactor this function to use async/await.', 'Thanks, that helped a lot!', 'Explain monads like I am five.']
  return other[i % other.length]
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-recall-'))
  const core = await CairnCore.open({ home: dir })
  try {
    const fillStarted = performance.now()
    // Rows as MemoryArchive.add writes them (the FTS is kept by the table's triggers), in one transaction:
    // going through add (threat scan, a ledger row each) is bench:archive's fill.
    const insert = core.db.prepare("INSERT INTO memory_archive (target, project_key, text, words, source, added_at, updated_at) VALUES ('user', NULL, ?, ?, 'overflow', ?, ?)")
    core.db.transaction(() => {
      for (let i = 0; i < ROWS; i++) insert.run(entry(i), archiveWordsOf(entry(i)), i, i)
    })()
    core.db.exec("INSERT INTO memory_archive_fts (memory_archive_fts) VALUES ('optimize')")
    const fillMs = performance.now() - fillStarted
    const recall = new MemoryRecall(new BuiltinMemoryProvider(core.archive))
    for (let i = 0; i < 50; i++) await recall.forTurn(message(i), { sessionId: 'warm', projectKey: null }) // warm the page cache
    const times: number[] = []
    let recalled = 0
    for (let i = 0; i < TURNS; i++) {
      const started = performance.now()
      const offered = await recall.forTurn(message(i), { sessionId: `s${i % 20}`, projectKey: null })
      times.push(performance.now() - started)
      if (offered) recalled++
    }
    times.sort((a, b) => a - b)
    const ms = (value: number) => Math.round(value * 1000) / 1000
    console.log(
      JSON.stringify(
        { rows: ROWS, turns: TURNS, subjects: SUBJECTS.length, places: PLACES.length, fillSeconds: ms(fillMs / 1000), recalledTurns: recalled, perTurnMs: { p50: ms(percentile(times, 50)), p95: ms(percentile(times, 95)), max: ms(times.at(-1)!) } },
        null,
        2
      )
    )
  } finally {
    await core.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
