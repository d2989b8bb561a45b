import './zod-without-eval.js';
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

const root = document.getElementById('app');
if (root === null) throw new Error('index.html has no #app element');
root.replaceChildren();
render(<App />, root);
