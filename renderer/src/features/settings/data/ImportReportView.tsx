import type { ReactNode } from 'react'
import type { ImportReportInfo } from '../../../../../shared/ipc/contract-import'
import { useApp, useT } from '../../../app/context'
import { countLines } from './import-words'

/** What an import brought in, or a preview would: the counts, then each problem by file and line. */
export function ImportReportView({ report, title, actions }: { report: ImportReportInfo; title: string; actions?: ReactNode }): React.JSX.Element {
  const t = useT()
  const { ui } = useApp()
  const { counts, problems } = report
  const waiting = !report.dryRun && counts.memory.proposed + counts.skills.proposed > 0
  return (
    <div className="import-report" aria-live="polite">
      <p className="import-report-title">{title}</p>
      <ul className="import-counts">
        {countLines(counts, report.source, t).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {problems.length ? (
        <>
          <p className="import-report-title">{t('import.problems', { count: problems.length })}</p>
          <ul className="import-problems">
            {problems.map((problem, index) => (
              <li key={index}>
                <span className="mono">
                  {problem.file}
                  {problem.line ? `:${problem.line}` : ''}
                </span>{' '}
                {problem.message}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {actions || waiting ? (
        <div className="card-actions">
          {actions}
          {waiting ? (
            <button type="button" className="secondary-button small" onClick={() => ui.getState().navigate('inbox')}>
              {t('import.openInbox')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}
