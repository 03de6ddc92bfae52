// One panel's card on the grid, and the test hook every chart carries: data-chart="<title>", and
// once drawn data-series and data-points (for stat, gauge, bar gauge and table: the values shown).
// data-state is loading | ready | empty | error | unsupported; data-kind is the panel's kind.
import { h, fill } from '../dom.js';

export class PanelCard {
  constructor({ id, kind, title, description, links, onEdit }) {
    this.body = h('div.dash-panel-body');
    this.footer = h('div.dash-panel-notes.muted');
    const editButton = onEdit ? h('button.dash-panel-edit', { type: 'button', title: `Edit ${title || 'panel'}`, 'aria-label': `Edit ${title || 'panel'}`, onclick: onEdit }, 'Edit') : null;
    this.el = h('section.dash-panel', {
      dataset: { chart: title, panelId: id, kind, state: 'loading' }, role: 'figure', 'aria-label': title || kind,
    }, h('header', h('h3', { title: description || '' }, title || ''), links || null, editButton), this.body, this.footer);
    this.body.append(h('div.chart-msg.muted', 'Loading…'));
    this.disposers = [];
  }

  /** Keeps what is drawn while new data loads. */
  loading() {
    this.el.classList.add('is-loading');
  }

  /** Releases what the last drawing held (a uPlot, an observer). */
  clear() {
    this.disposers.forEach((d) => d());
    this.disposers = [];
    fill(this.footer);
  }

  onClear(fn) {
    this.disposers.push(fn);
  }

  error(message) {
    this.clear();
    this.el.classList.remove('is-loading');
    this.el.dataset.state = 'error';
    this.el.dataset.error = message;
    delete this.el.dataset.series;
    delete this.el.dataset.points;
    fill(this.body, h('div.chart-msg.error-box', { role: 'alert' }, message));
  }

  empty(message = 'No data') {
    this.clear();
    this.el.classList.remove('is-loading');
    this.el.dataset.state = 'empty';
    this.el.dataset.series = '0';
    this.el.dataset.points = '0';
    delete this.el.dataset.error;
    fill(this.body, h('div.chart-msg.muted', message));
  }

  /** Marks the card drawn with `series` series and `points` points (or values shown). */
  drawn(series, points) {
    this.el.classList.remove('is-loading');
    this.el.dataset.state = 'ready';
    delete this.el.dataset.error;
    this.el.dataset.series = String(series);
    this.el.dataset.points = String(points);
  }

  /** A line under the panel: a transformation not applied, a query error beside data... */
  note(text) {
    this.footer.append(h('div', text));
  }

  dispose() {
    this.clear();
  }
}
