import type { ContentDanger } from '../../../shared/dangers'
import { describeDangers, describeProvenance, describeProvenanceEvidence } from '../../../shared/i18n/describe-provenance'
import type { Provenance } from '../../../shared/provenance'
import { useT } from '../app/context'
import { Icon } from './Icon'

/**
 * Where a learned change's content came from ("From README.md, read by read_file", "From what you
 * said"), what gives it away, and what it adds that could hurt if followed. Shown on the Timeline and
 * in the Inbox; nothing for older changes, which carry none of it.
 */
export function ContentOrigin({ meta }: { meta: { provenance?: Provenance; dangers?: ContentDanger[] } }): React.JSX.Element | null {
  const t = useT()
  const origin = describeProvenance(meta.provenance, t)
  const evidence = describeProvenanceEvidence(meta.provenance, t)
  const dangers = describeDangers(meta.dangers, t)
  if (!origin && dangers.length === 0) return null
  return (
    <div className="content-origin">
      {origin ? (
        <p className={`provenance provenance-${meta.provenance?.origin ?? 'model'}`}>
          <Icon name={meta.provenance?.origin === 'read' ? 'alert' : meta.provenance?.origin === 'user' ? 'user' : 'sparkle'} size={13} />
          <span>
            {origin}
            {evidence ? <span className="provenance-evidence">{evidence}</span> : null}
          </span>
        </p>
      ) : null}
      {dangers.length ? (
        <ul className="content-dangers">
          {dangers.map((line, index) => (
            <li key={index}>
              <Icon name="alert" size={13} />
              <span>{line}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
