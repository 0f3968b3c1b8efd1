import { useMemo, useState } from 'react'
import { useT } from '../../app/context'
import { computeDiff, FULL_CONTEXT, splitRows, type DiffHunk, type SideCell } from './diff-model'

export type DiffMode = 'unified' | 'split'

export interface DiffViewerProps {
  before: string | null
  after: string | null
  fileName: string
  initialMode?: DiffMode
}

/** A file's change, unified or side by side, with line numbers. Text is rendered as text, never HTML. */
export function DiffViewer({ before, after, fileName, initialMode = 'unified' }: DiffViewerProps): React.JSX.Element {
  const t = useT()
  const [mode, setMode] = useState<DiffMode>(initialMode)
  const [full, setFull] = useState(false)
  const diff = useMemo(() => computeDiff(before, after, full ? FULL_CONTEXT : 3), [before, after, full])
  const state = before === null ? t('diff.created') : after === null ? t('diff.deleted') : null

  return (
    <div className="diff-viewer">
      <div className="diff-toolbar">
        <span className="diff-file">{fileName}</span>
        {state ? <span className="badge muted">{state}</span> : null}
        <span className="diff-stat add">+{diff.added}</span>
        <span className="diff-stat del">−{diff.removed}</span>
        <span className="spacer" />
        <label className="check-label">
          <input type="checkbox" checked={full} onChange={(event) => setFull(event.target.checked)} />
          {t('diff.fullFile')}
        </label>
        <div className="segmented" role="group" aria-label={t('diff.mode')}>
          <button type="button" aria-pressed={mode === 'unified'} className={mode === 'unified' ? 'active' : ''} onClick={() => setMode('unified')}>
            {t('diff.unified')}
          </button>
          <button type="button" aria-pressed={mode === 'split'} className={mode === 'split' ? 'active' : ''} onClick={() => setMode('split')}>
            {t('diff.split')}
          </button>
        </div>
      </div>
      {diff.hunks.length === 0 ? (
        <p className="diff-empty">{t('diff.noChanges')}</p>
      ) : (
        <div className="diff-scroll">
          <table className={`diff-table ${mode}`} data-mode={mode}>
            {mode === 'unified' ? (
              <colgroup>
                <col className="col-ln" />
                <col className="col-ln" />
                <col className="col-sign" />
                <col />
              </colgroup>
            ) : (
              <colgroup>
                <col className="col-ln" />
                <col className="col-half" />
                <col className="col-ln" />
                <col className="col-half" />
              </colgroup>
            )}
            {diff.hunks.map((hunk, index) => (mode === 'unified' ? <UnifiedHunk key={index} hunk={hunk} /> : <SplitHunk key={index} hunk={hunk} />))}
          </table>
        </div>
      )}
    </div>
  )
}

function hunkHeader(hunk: DiffHunk): string {
  return `@@ −${hunk.oldStart} +${hunk.newStart} @@`
}

function UnifiedHunk({ hunk }: { hunk: DiffHunk }): React.JSX.Element {
  return (
    <tbody>
      <tr className="diff-hunk">
        <td colSpan={4}>{hunkHeader(hunk)}</td>
      </tr>
      {hunk.lines.map((line, index) => (
        <tr key={index} className={`diff-line ${line.type}`} data-type={line.type}>
          <td className="ln">{line.oldNo ?? ''}</td>
          <td className="ln">{line.newNo ?? ''}</td>
          <td className="sign">{line.type === 'add' ? '+' : line.type === 'del' ? '−' : ''}</td>
          <td className="code">{line.text}</td>
        </tr>
      ))}
    </tbody>
  )
}

function SplitHunk({ hunk }: { hunk: DiffHunk }): React.JSX.Element {
  return (
    <tbody>
      <tr className="diff-hunk">
        <td colSpan={4}>{hunkHeader(hunk)}</td>
      </tr>
      {splitRows(hunk).map((row, index) => (
        <tr key={index} className="diff-line split-row">
          <Cell cell={row.left} />
          <Cell cell={row.right} />
        </tr>
      ))}
    </tbody>
  )
}

function Cell({ cell }: { cell: SideCell }): React.JSX.Element {
  return (
    <>
      <td className={`ln ${cell.type}`}>{cell.no ?? ''}</td>
      <td className={`code ${cell.type}`} data-type={cell.type}>
        {cell.text}
      </td>
    </>
  )
}
