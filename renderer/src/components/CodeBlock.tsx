import type { ReactNode } from 'react'
import { CopyButton } from './CopyButton'

/** A fenced code block: language label and a copy button over the highlighted code. */
export function CodeBlock({ language, text, children }: { language: string | null; text: string; children: ReactNode }): React.JSX.Element {
  return (
    <div className="code-block">
      <div className="code-block-bar">
        <span className="code-block-lang">{language ?? ''}</span>
        <CopyButton text={text.replace(/\n$/, '')} compact />
      </div>
      <pre>{children}</pre>
    </div>
  )
}
