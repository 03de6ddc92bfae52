// The panel editor: title, unit, each query's PromQL and legend, thresholds, overrides
// (editor-fields.js) and transformations (editor-transforms.js), saved with PUT as a new version
// of the dashboard (the server keeps every version; a provisioned file is written back).
import { h, fill, errorBox } from '../dom.js';
import { putJson } from './requests.js';
import { thresholdsSection, overridesSection, sortedSteps } from './editor-fields.js';
import { transformationsSection } from './editor-transforms.js';

/** Properties left empty in the form are dropped rather than saved as null. */
function withoutEmptyProperties(overrides) {
  return (overrides || []).map((o) => ({ ...o, properties: (o.properties || []).filter((p) => p.value !== null && p.value !== undefined && p.value !== '') }));
}

/**
 * Opens a dialog for panel `panelId` of the stored dashboard; `onSaved(saved)` after the PUT
 * succeeds (saved is the server's answer with the new version).
 */
export function editPanel(stored, panelId, onSaved) {
  const model = JSON.parse(JSON.stringify(stored.dashboard));
  const panel = model.panels[panelId];
  const title = h('input', { type: 'text', name: 'title', value: panel.title, size: 50 });
  const unit = h('input', { type: 'text', name: 'unit', value: (panel.fieldConfig.defaults || {}).unit || '', size: 16, placeholder: 'e.g. percent, bytes, s' });
  const queries = panel.queries.map((q, i) => ({
    expr: h('textarea.mono', { name: `expr-${i}`, rows: 3, cols: 80, 'aria-label': `Query ${q.refId}` }, q.expr),
    legend: h('input', { type: 'text', name: `legend-${i}`, value: q.legendFormat, size: 30, 'aria-label': `Legend ${q.refId}` }),
    q,
  }));
  panel.fieldConfig.defaults = panel.fieldConfig.defaults || {};
  const problems = new Map();
  const thresholds = thresholdsSection(panel.fieldConfig.defaults);
  const overrides = overridesSection(panel.fieldConfig, problems);
  const transformations = transformationsSection(panel, problems);
  const message = h('input', { type: 'text', name: 'message', value: '', size: 50, placeholder: 'what changed (optional)' });
  const status = h('div.dash-editor-status');
  const dialog = h('dialog.dash-editor', { 'aria-label': `Edit ${panel.title}` });
  const close = () => {
    dialog.close();
    dialog.remove();
  };
  const save = async () => {
    if (problems.size) {
      fill(status, errorBox([...problems.values()].join('\n')));
      return;
    }
    panel.title = title.value;
    const t = panel.fieldConfig.defaults.thresholds;
    if (t && t.steps) t.steps = sortedSteps(t.steps);
    panel.fieldConfig.overrides = withoutEmptyProperties(panel.fieldConfig.overrides);
    if (unit.value.trim()) panel.fieldConfig.defaults.unit = unit.value.trim();
    else delete panel.fieldConfig.defaults.unit;
    queries.forEach(({ expr, legend, q }) => {
      q.expr = expr.value;
      q.legendFormat = legend.value;
    });
    panel.queries = queries.map((x) => x.q);
    fill(status, h('span.muted', 'Saving…'));
    try {
      const saved = await putJson(`dashboards/${encodeURIComponent(stored.uid)}`, {
        dashboard: model,
        message: message.value || `edited panel "${panel.title}"`,
        author: 'cockpit',
      });
      close();
      onSaved(saved);
    } catch (e) {
      fill(status, errorBox(e.message));
    }
  };
  dialog.append(h('form', { method: 'dialog', onsubmit: (e) => { e.preventDefault(); save(); } },
    h('h2', `Edit panel: ${panel.title}`),
    h('label.dash-field', 'Title ', title),
    h('label.dash-field', 'Unit ', unit),
    queries.map(({ expr, legend, q }) => h('fieldset', h('legend', `Query ${q.refId}`), expr, h('label.dash-field', 'Legend ', legend))),
    thresholds,
    overrides,
    transformations,
    h('label.dash-field', 'Message ', message),
    status,
    h('div.dash-editor-buttons',
      h('button', { type: 'submit', class: 'primary' }, 'Save as new version'),
      h('button', { type: 'button', onclick: close }, 'Cancel'))));
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
