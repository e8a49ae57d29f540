// The chart library with its styles, as one chunk that the analytics page loads when it draws.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export default uPlot;
