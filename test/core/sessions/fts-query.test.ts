import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { MAX_QUERY_CHARS, planSearch, sanitizeFtsQuery } from '../../../electron/core/sessions'

/** Runs an expression against a real FTS5 table: a syntax error would throw here. */
function runsInFts5(expression: string): boolean {
  const db = new Database(':memory:')
  try {
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61 remove_diacritics 2')")
    db.prepare('INSERT INTO t (body) VALUES (?)').run('C++ templates chat-send P2.2 my-app.config.ts sp_new deploying')
    db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(expression)
    return true
  } finally {
    db.close()
  }
}

describe('sanitizeFtsQuery (natural language → OR of quoted terms)', () => {
  it('drops stop words, de-duplicates, quotes each term and ORs them', () => {
    expect(sanitizeFtsQuery('When did Caroline go to the LGBTQ support group? The group!')).toBe(
      '"Caroline" OR "go" OR "LGBTQ" OR "support" OR "group"'
    )
    expect(sanitizeFtsQuery("What is Caroline's identity?")).toBe('"Caroline" OR "identity"')
  })

  it('keeps stop words when nothing else is left', () => {
    expect(sanitizeFtsQuery('what is it')).toBe('"what" OR "is" OR "it"')
  })

  it('handles the Hermes sanitiser cases', () => {
    expect(sanitizeFtsQuery('C++')).not.toContain('+')
    expect(sanitizeFtsQuery('"unterminated')).toBe('"unterminated"')
    expect(sanitizeFtsQuery('hello AND')).toBe('"hello"')
    expect(sanitizeFtsQuery('OR world')).toBe('"world"')
    expect(sanitizeFtsQuery('***')).toBe('')
    expect(sanitizeFtsQuery('docker*')).toBe('"docker"*')
    expect(sanitizeFtsQuery('TODO: fix')).toBe('"TODO" OR "fix"')
    expect(sanitizeFtsQuery('chat-send')).toBe('"chat-send"')
    expect(sanitizeFtsQuery('P2.2')).toBe('"P2.2"')
    expect(sanitizeFtsQuery('my-app.config.ts')).toBe('"my-app.config.ts"')
    expect(sanitizeFtsQuery('sp_new')).toBe('"sp_new"')
    expect(sanitizeFtsQuery('the "exact phrase" matters')).toBe('"exact phrase" OR "matters"')
  })

  it('never produces an expression FTS5 rejects', () => {
    const nasty = [
      'C++',
      '"unterminated',
      'hello AND',
      'OR world',
      'NOT',
      '***',
      'a***b',
      '(group) {x} [y] ^z: col:val',
      'NEAR(a b, 3)',
      '"" "" "',
      '-- DROP TABLE messages; --',
      "it's \\ back\\slash 'single'",
      '💥 emoji 🚀 only',
      'x'.repeat(5000),
      Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ')
    ]
    for (const input of nasty) {
      const expression = sanitizeFtsQuery(input)
      if (expression) expect(runsInFts5(expression), input.slice(0, 40)).toBe(true)
    }
  })

  it('bounds the output whatever the input size', () => {
    expect(sanitizeFtsQuery('y'.repeat(100_000)).length).toBeLessThanOrEqual(2 * MAX_QUERY_CHARS)
    const many = Array.from({ length: 2000 }, (_, i) => `term${i}`).join(' ')
    expect(sanitizeFtsQuery(many).split(' OR ').length).toBeLessThanOrEqual(32)
  })

  it('keeps prefix searches working through the porter stemmer', () => {
    const db = new Database(':memory:')
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61 remove_diacritics 2')")
    for (const word of ['deploy', 'deploying', 'deployment', 'unrelated']) db.prepare('INSERT INTO t (body) VALUES (?)').run(word)
    const hits = db.prepare('SELECT body FROM t WHERE t MATCH ?').all(sanitizeFtsQuery('deploy*')) as Array<{ body: string }>
    expect(hits.map((h) => h.body).sort()).toEqual(['deploy', 'deploying', 'deployment'])
    db.close()
  })

  it('does not turn a one-letter prefix into a match-everything query', () => {
    expect(sanitizeFtsQuery('a* deploy')).toBe('"deploy"')
  })
})

describe('planSearch for unsegmented scripts', () => {
  it('routes Chinese runs of three or more characters to the trigram index and shorter ones to LIKE', () => {
    const plan = planSearch('我们上次讨论的部署问题 docker')
    expect(plan.fts).toBe('"docker"')
    expect(plan.trigram).toContain('"部署问题"')
    expect(plan.like).toEqual(['讨论'])
  })

  it('splits on particles so content words survive', () => {
    expect(planSearch('部署失败了吗').trigram).toContain('"部署失败"')
    expect(planSearch('公园').like).toEqual(['公园'])
  })
})
