import type { ReactNode } from 'react'
import { Icon, type IconName } from './Icon'

/** A calm placeholder for an empty list or screen. */
export function EmptyState({ icon, title, children }: { icon: IconName; title: string; children?: ReactNode }): React.JSX.Element {
  return (
    <div className="empty-state">
      <div className="empty-state-icon">
        <Icon name={icon} size={22} />
      </div>
      <p className="empty-state-title">{title}</p>
      {children ? <div className="empty-state-body">{children}</div> : null}
    </div>
  )
}

/** An inline problem with an optional action (Retry, Open settings…). */
export function Notice({ tone, children, actions }: { tone: 'error' | 'warn' | 'info' | 'success'; children: ReactNode; actions?: ReactNode }): React.JSX.Element {
  return (
    <div className={`notice ${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <Icon name={tone === 'info' ? 'info' : tone === 'success' ? 'check' : 'alert'} size={17} />
      <div className="notice-text">{children}</div>
      {actions ? <div className="notice-actions">{actions}</div> : null}
    </div>
  )
}

export function Spinner({ label }: { label?: string }): React.JSX.Element {
  return <span className="spinner" role="status" aria-label={label} />
}

/** A search snippet with its `>>>match<<<` parts highlighted, built as elements (never HTML). */
export function Highlighted({ parts }: { parts: Array<{ text: string; match: boolean }> }): React.JSX.Element {
  return (
    <>
      {parts.map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
    </>
  )
}
