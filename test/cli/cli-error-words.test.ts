import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCairn } from '../helpers/run-cli'

/** The CLI words a failure from its error key, in the data home's language (`ui.language`). */

function home(language?: 'zh-CN'): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-cli-words-'))
  if (language) {
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ui: { language } }))
  }
  return dir
}

describe('failures worded from their keys', () => {
  it('says a missing conversation in Chinese when the data home speaks Chinese', async () => {
    const dir = home('zh-CN')
    const run = await runCairn(['--home', dir, 'sessions', 'show', 'nope'], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('cairn: 没有对话 nope。列出全部：cairn sessions\n')
  })

  it('keeps the English sentence otherwise', async () => {
    const dir = home()
    const run = await runCairn(['--home', dir, 'inbox', 'show', '99'], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('cairn: There is no proposal #99. List them with: cairn inbox\n')
  })
})

describe('domain errors worded from their keys (KeyedError)', () => {
  it('says sync is not set up in Chinese', async () => {
    const dir = home('zh-CN')
    const run = await runCairn(['--home', dir, 'sync'], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('cairn: 同步尚未设置：请先运行 cairn sync setup <remote-url>。\n')
  })

  it('words a restore refusal in the home’s language before the home is opened', async () => {
    const dir = home('zh-CN')
    const archive = join(dir, 'nope.tar.gz')
    const run = await runCairn(['--home', dir, 'restore', archive], { cwd: dir })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(`cairn: ${archive} 处没有备份文件。\n`)
  })
})
