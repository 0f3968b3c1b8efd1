import type { StateDb } from '../db/state-db'

/**
 * The vocabulary holds porter stems, but a query word is stemmed again before it is matched, and
 * porter does not always leave a stem as it is: "compos" (of compose) becomes "compo", "deploy" (of
 * deployment) becomes "deploi". So a completion is searched through a spelling that stems to it:
 * the stem itself when porter keeps it, else the first of STEM_SPELLINGS that does ("compose",
 * "deployer"). The stemming is SQLite's own: the words go through a temporary FTS5 table with the
 * message index's tokenizer (per connection, nothing written to the database file), and what it
 * answers is remembered for the process.
 */

/** Endings tried, in order, to spell a stem porter would change: the ones porter removes again. */
export const STEM_SPELLINGS = ['', 'e', 'er', 'ment'] as const
/** Spellings remembered for the process (porter is the same for every database). */
const REMEMBERED_SPELLINGS = 4096

const spellings = new Map<string, string | null>()
const typedStems = new Map<string, string | null>()
const ready = new WeakSet<StateDb>()

/**
 * Each stem → a word porter stems to it (null when none of the spellings does). When the temporary
 * table cannot be made (a connection that cannot write even its temp schema), each stem stands for itself.
 */
export function spellStems(db: StateDb, stems: readonly string[]): Map<string, string | null> {
  const unknown = [...new Set(stems.filter((stem) => !spellings.has(stem)))]
  if (unknown.length) {
    const candidates = unknown.flatMap((stem) => STEM_SPELLINGS.map((ending) => `${stem}${ending}`))
    const stemmed = porterStems(db, candidates)
    // Without the tokenizer each stem stands for itself, for this call only: the next call tries again.
    if (!stemmed) return new Map(stems.map((stem) => [stem, spellings.has(stem) ? (spellings.get(stem) ?? null) : stem]))
    for (const stem of unknown) {
      const spelling = STEM_SPELLINGS.map((ending) => `${stem}${ending}`).find((word) => stemmed.get(word) === stem) ?? null
      if (spellings.size >= REMEMBERED_SPELLINGS) spellings.delete(spellings.keys().next().value as string)
      spellings.set(stem, spelling)
    }
  }
  return new Map(stems.map((stem) => [stem, spellings.get(stem) ?? null]))
}

/** The porter stem of one word (the one being typed: asked for at every keystroke, so remembered). */
export function stemOf(db: StateDb, word: string): string | null {
  if (!typedStems.has(word)) {
    const stemmed = porterStems(db, [word])
    // A failure is not remembered: the next keystroke tries again.
    if (!stemmed) return null
    if (typedStems.size >= REMEMBERED_SPELLINGS) typedStems.delete(typedStems.keys().next().value as string)
    typedStems.set(word, stemmed.get(word) ?? null)
  }
  return typedStems.get(word) ?? null
}

/** Each word → its porter stem as the message index stores it (null when the temporary table cannot be used). */
export function porterStems(db: StateDb, words: readonly string[]): Map<string, string> | null {
  try {
    if (!ready.has(db)) {
      db.exec(`
        CREATE VIRTUAL TABLE IF NOT EXISTS temp.porter_words USING fts5(word, tokenize='porter unicode61 remove_diacritics 2');
        CREATE VIRTUAL TABLE IF NOT EXISTS temp.porter_stems USING fts5vocab(temp, porter_words, instance);
      `)
      // Made inside a transaction, the tables go if it rolls back: then they are made again next time.
      if (!db.inTransaction) ready.add(db)
    }
    const found = new Map<string, string>()
    const stem = db.transaction(() => {
      db.exec('DELETE FROM temp.porter_words')
      const insert = db.prepare('INSERT INTO temp.porter_words (rowid, word) VALUES (?, ?)')
      words.forEach((word, i) => insert.run(i + 1, word))
      // One row per token: a word the tokenizer splits (it holds no separator here) would give several.
      for (const row of db.prepare('SELECT doc, term FROM temp.porter_stems').all() as Array<{ doc: number; term: string }>) {
        const word = words[row.doc - 1]
        found.set(word, found.has(word) ? '' : row.term)
      }
      db.exec('DELETE FROM temp.porter_words')
    })
    stem()
    return found
  } catch {
    return null
  }
}
