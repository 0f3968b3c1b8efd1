import type { ReactNode } from 'react'
import { Spinner } from './Feedback'

/** A main-area screen: a titled header, then the screen's own body. */
export function Pane({ label, title, extra, children }: { label: string; title: string; extra?: ReactNode; children: ReactNode }): React.JSX.Element {
  return (
    <section className="pane" aria-label={label}>
      <header className="pane-header">
        <h1 className="pane-title">{title}</h1>
        {extra}
      </header>
      {children}
    </section>
  )
}

/** The scrolling column most screens use, with an optional lead paragraph. */
export function PaneBody({ narrow, lead, children }: { narrow?: boolean; lead?: string; children: ReactNode }): React.JSX.Element {
  return (
    <div className="pane-scroll">
      <div className={narrow ? 'pane-content narrow' : 'pane-content'}>
        {lead ? <p className="pane-lead">{lead}</p> : null}
        {children}
      </div>
    </div>
  )
}

export function PaneLoading({ label }: { label: string }): React.JSX.Element {
  return (
    <div className="pane-center">
      <Spinner label={label} />
    </div>
  )
}
