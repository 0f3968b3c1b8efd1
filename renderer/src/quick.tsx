import './styles/index.css'
import './styles/quick.css'
import { boot } from './app/boot'
import { QuickApp } from './features/quick/QuickApp'

boot('quick', <QuickApp />)
