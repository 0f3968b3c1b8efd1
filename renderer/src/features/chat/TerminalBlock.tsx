import { useT } from '../../app/context'
import type { Translate } from '../../../../shared/i18n'
import { FoldedText } from './FoldedText'
import { num, str, type Fields } from './tool-view'

/** "12 ms", "3.4 s": how long a call took. */
export function formatDuration(ms: number, t: Translate): string {
  return ms < 1000 ? t('chat.tool.took', { ms }) : t('tools.seconds', { seconds: (ms / 1000).toFixed(ms < 10_000 ? 1 : 0) })
}

/** A command as a terminal shows it: the command line, its output and errors, an exit-code badge and the time it took. */
export function TerminalBlock({ args, result, durationMs }: { args: Fields; result: Fields | null; durationMs: number | null }): React.JSX.Element {
  const t = useT()
  const command = str(args, 'command') ?? ''
  const stdout = result ? str(result, 'stdout') ?? '' : ''
  const stderr = result ? str(result, 'stderr') ?? '' : ''
  const exitCode = result ? num(result, 'exit_code') : undefined
  const took = (result && num(result, 'duration_ms')) ?? durationMs
  const badge = result ? exitBadge(result, exitCode, t) : null
  const message = result ? str(result, 'note') ?? (result.success === false ? str(result, 'error') : undefined) : undefined
  return (
    <div className="terminal">
      <div className="terminal-head">
        <code className="terminal-command">
          <span className="terminal-prompt" aria-hidden="true">
            $
          </span>{' '}
          {command}
        </code>
        {badge ? <span className={`terminal-exit ${badge.tone}`}>{badge.text}</span> : null}
        {result && took !== null && took !== undefined ? <span className="terminal-duration">{formatDuration(took, t)}</span> : null}
      </div>
      {result ? (
        <div className="terminal-output">
          {stdout ? <FoldedText text={stdout} className="terminal-stdout" /> : null}
          {stderr ? (
            <div className="terminal-stderr" aria-label={t('tools.stderr')}>
              <FoldedText text={stderr} className="terminal-stderr-text" />
            </div>
          ) : null}
          {!stdout && !stderr && !message ? <p className="terminal-empty">{t('tools.noOutput')}</p> : null}
          {message ? <p className="terminal-note">{message}</p> : null}
        </div>
      ) : null}
    </div>
  )
}

function exitBadge(result: Fields, exitCode: number | undefined, t: Translate): { text: string; tone: 'ok' | 'bad' } | null {
  if (result.cancelled === true) return { text: t('tools.cancelled'), tone: 'bad' }
  if (result.timed_out === true) return { text: t('tools.timedOut'), tone: 'bad' }
  const signal = str(result, 'signal')
  if (exitCode === undefined && signal) return { text: t('tools.exitSignal', { signal }), tone: 'bad' }
  if (exitCode === undefined) return null
  return { text: t('tools.exit', { code: exitCode }), tone: exitCode === 0 ? 'ok' : 'bad' }
}
