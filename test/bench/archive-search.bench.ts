/**
 * The memory archive at 100,000 entries: fills a fresh data home's archive through `MemoryArchive.add`
 * (threat scan, CJK words, FTS5 triggers and a ledger row per entry, in transactions of 1,000 as an
 * import would), then times `search` over a mix of queries: one to four words, common and rare,
 * natural-language questions, project-scoped, and Chinese. Prints the fill time and p50/p95/max per
 * query kind and overall (target: p95 < 10 ms).
 *
 *   npm run bench:archive [-- --count N --keep]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { CairnCore } from '../../electron/core/cairn'

const args = process.argv.slice(2)
const count = Number(args[args.indexOf('--count') + 1]) > 0 && args.includes('--count') ? Number(args[args.indexOf('--count') + 1]) : 100_000
const keep = args.includes('--keep')

// A deterministic generator, so runs compare.
let seed = 42
const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]

const people = ['The user', 'Ada', 'Their manager Sam', 'The team lead', 'Their partner', 'The client', 'Their sister Mia', 'The designer']
const verbs = ['prefers', 'uses', 'avoids', 'wants', 'deploys with', 'tests with', 'writes docs in', 'reviews code in', 'keeps notes in', 'pays for']
const tools = ['pnpm', 'npm', 'yarn', 'bun', 'Docker', 'Podman', 'kubectl', 'Terraform', 'Ansible', 'Vim', 'VS Code', 'Emacs', 'Zed', 'Notion', 'Obsidian', 'Linear', 'Jira', 'GitHub Actions', 'GitLab CI', 'Grafana', 'Sentry', 'PostgreSQL', 'SQLite', 'Redis', 'Rust', 'Go', 'TypeScript', 'Python', 'OCaml', 'Zig', 'fly.io', 'Vercel', 'Hetzner', 'AWS', 'Cloudflare', 'Tailscale', 'WireGuard', 'Nix', 'Homebrew', 'pytest', 'vitest', 'Playwright']
const contexts = ['for the shop', 'at work', 'for side projects', 'on the home server', 'for the blog', 'in the monorepo', 'on weekends', 'for client work', 'since the migration', 'on the laptop', 'for the thesis', 'in CI']
const facts = [
  (n: number) => `Backups of ${pick(['the NAS', 'the photo library', 'postgres', 'the wiki'])} run at ${n % 24}:00 and are kept ${n % 60} days`,
  (n: number) => `The ${pick(['staging', 'prod', 'preview', 'demo'])} server ${pick(['atlas', 'vega', 'orion', 'lyra', 'draco'])}-${n % 100} is reached over ${pick(['Tailscale', 'the VPN', 'ssh jump host'])}`,
  (n: number) => `Allergic to ${pick(['peanuts', 'shellfish', 'cats', 'pollen'])}; birthday on ${1 + (n % 28)} ${pick(['March', 'June', 'October', 'December'])}`,
  (n: number) => `Ticket ${pick(['OPS', 'WEB', 'API'])}-${n} was about ${pick(['slow builds', 'flaky tests', 'a memory leak', 'login errors', 'broken invoices'])}`,
  (n: number) => `Reads ${pick(['sci-fi', 'history', 'poetry', 'math papers'])} and is learning ${pick(['Japanese', 'the cello', 'climbing', 'woodworking'])} (${n % 7} lessons a week)`
]
const chinese = [
  (n: number) => `用户每周${pick(['一', '三', '五'])}部署${pick(['生产环境', '测试环境', '预发布环境'])}，部署前要跑完整测试（第${n % 50}次）`,
  () => `${pick(['数据库', '缓存', '日志', '监控'])}和${pick(['服务器', '网关', '队列'])}在同一个机房，迁移计划在${pick(['春天', '夏天', '秋天'])}`,
  () => `喜欢${pick(['简洁', '详细', '直接'])}的回答，代码放在前面，注释用${pick(['中文', '英文'])}`,
  (n: number) => `项目${pick(['商城', '博客', '官网'])}用${pick(['pnpm', 'Docker', 'Rust', 'Go'])}构建，版本号${n % 20}`
]
const projects = [null, null, null, 'shop-0123456789ab', 'blog-abcdef012345', 'thesis-998877665544']

function entry(n: number): string {
  const roll = random()
  if (roll < 0.1) return pick(chinese)(n)
  if (roll < 0.45) return pick(facts)(n)
  return `${pick(people)} ${pick(verbs)} ${pick(tools)} ${pick(contexts)}${roll < 0.6 ? `, not ${pick(tools)}` : ''} (note ${n})`
}

const queries: Record<string, string[]> = {
  'one word': ['pnpm', 'grafana', 'backups', 'allergic', 'tailscale', 'ocaml', 'invoices', 'cello', 'hetzner', 'playwright'],
  'common words': ['user uses', 'the team lead prefers', 'for side projects at work', 'keeps notes in', 'note'],
  'several words': ['which server is staging on', 'how do we deploy the shop', 'backups of the photo library', 'flaky tests ticket', 'what does Ada use for CI'],
  question: ['what editor does the user prefer when writing rust?', 'where are the postgres backups kept and for how long?', 'is the user allergic to anything?'],
  chinese: ['部署', '生产环境', '数据库', '回答', '和服', '迁移计划']
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-bench-archive-'))
  const core = await CairnCore.open({ home })
  try {
    const fillStart = performance.now()
    const write = { source: 'import' as const, reviewId: 'import:bench' }
    // Texts repeat now and then (an archive keeps one copy per store and project): fill until the count is reached.
    let n = 0
    for (let have = 0; have < count; have = core.archive.count()) {
      core.db.transaction(() => {
        for (let i = Math.min(1000, count - have); i > 0; i--, n++) {
          core.archive.add({ target: random() < 0.3 ? 'user' : 'memory', text: entry(n), projectKey: pick(projects), source: pick(['overflow', 'retired', 'added'] as const), write, at: 1_700_000_000_000 + n * 1000 })
        }
      })()
    }
    const fillMs = performance.now() - fillStart
    core.db.exec("INSERT INTO memory_archive_fts (memory_archive_fts) VALUES ('optimize')")

    const rounds = 20
    const report: Record<string, { p50: number; p95: number; max: number; meanHits: number }> = {}
    const all: number[] = []
    for (const [kind, list] of Object.entries(queries)) {
      const times: number[] = []
      let hits = 0
      for (let round = 0; round < rounds; round++) {
        for (const query of list) {
          const projectKey = round % 2 === 0 ? undefined : pick(projects)
          const t0 = performance.now()
          hits += core.archive.search(query, { limit: 10, projectKey }).length
          times.push(performance.now() - t0)
        }
      }
      all.push(...times)
      report[kind] = { ...percentiles(times), meanHits: round2(hits / times.length) }
    }
    console.log(
      JSON.stringify(
        {
          entries: core.archive.count(),
          fillSeconds: round2(fillMs / 1000),
          fillPerEntryMs: round2(fillMs / count),
          overall: percentiles(all),
          byKind: report
        },
        null,
        2
      )
    )
  } finally {
    await core.close()
    if (!keep) rmSync(home, { recursive: true, force: true })
    else console.error(`kept ${home}`)
  }
}

function percentiles(times: number[]): { p50: number; p95: number; max: number } {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => round2(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))])
  return { p50: at(0.5), p95: at(0.95), max: round2(sorted[sorted.length - 1]) }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100
}

void main()
