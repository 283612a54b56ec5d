import { render } from 'solid-js/web';
import { App } from './App.js';
import './kit/tokens.css';
import './kit/base.css';
import './kit/screen.css';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('renderer: #root element missing from index.html');
render(() => <App />, root);
