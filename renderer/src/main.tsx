import { createRoot } from 'react-dom/client'

function App(): React.JSX.Element {
  return <main><h1>Cairn</h1><p>The desktop shell arrives in a later issue.</p></main>
}

createRoot(document.getElementById('root')!).render(<App />)
