import './styles/index.css'
import { App } from './app/App'
import { boot } from './app/boot'

boot('main', <App />)
