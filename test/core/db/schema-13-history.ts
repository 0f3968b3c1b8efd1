import Database from 'better-sqlite3'
import { migrations } from '../../../electron/core/db/migrations'

/** Messages of a history from before migration 14, oldest first: session and text. */
export const HISTORY: Array<[string, string]> = [
  ['kimono', '她穿着和服去了京都'],
  ['english', 'The build passed after clearing the cache'],
  ['servers', '数据库和服务器都重启了'],
  ['cafe', 'Meet at the café at noon'],
  ['deploy', '上周部署到服务器的时候失败了'],
  ['party', 'Party 🎉 on Friday'],
  ['ml', '機械学習モデルの評価'],
  ['merge', '合并冲突解决了']
]
/** Messages holding anything but ASCII: the backlog (café counts, though it gets no words). */
export const BACKLOG = HISTORY.filter(([, text]) => !/^[\x00-\x7f]*$/.test(text)).length

/** Writes a state.db at schema 13 holding {@link HISTORY} to `path`, as an install from before migration 14 left it. */
export function writeSchema13(path: string): void {
  const old = new Database(path)
  old.pragma('journal_mode = WAL')
  for (const m of migrations.filter((m) => m.version < 14)) old.exec(m.sql)
  old.pragma('user_version = 13')
  const session = old.prepare('INSERT INTO sessions (id, started_at, updated_at) VALUES (?, ?, ?)')
  const message = old.prepare("INSERT INTO messages (session_id, role, content, created_at) VALUES (?, 'user', ?, ?)")
  HISTORY.forEach(([id, text], i) => {
    session.run(id, i + 1, i + 1)
    message.run(id, text, i + 1)
  })
  old.close()
}
