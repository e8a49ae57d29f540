import { render } from 'preact';
import { App } from './shell/app';
import './styles.css';

render(<App />, document.getElementById('app')!);
