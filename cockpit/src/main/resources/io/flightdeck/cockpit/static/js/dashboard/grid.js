// Places one section's panels on the 24-column grid. A repeated panel (the queries API gives one
// entry per value) becomes clones: side by side, at most maxPerRow (4) to a line, for direction
// "h", or stacked for "v"; the panels below it move down by the height the clones added, as in
// Grafana. Clones laid across the whole width may land on a panel beside the repeated one: the
// later of the two in reading order (top to bottom, then left to right) then moves down below the
// other, clones moving as one block, as Grafana's grid pushes a colliding panel down. Answers
// [{entry, x, y, w, h}] with y in grid rows from the section's top.
import { h } from '../dom.js';

export const ROW_PX = 30;
export const GAP_PX = 8;

/**
 * @param items the section's GridItems ({panel, x, y, w, h})
 * @param entriesOf (panelId) => the queries API entries for that panel in this section instance
 * @param panels the model's panels by id (for repeatDirection and maxPerRow)
 */
export function placeSection(items, entriesOf, panels) {
  const sorted = items.slice().sort((a, b) => a.y - b.y || a.x - b.x);
  const groups = [];
  const shifts = [];
  const shiftAt = (y) => shifts.reduce((n, s) => n + (y >= s.from ? s.by : 0), 0);
  for (const item of sorted) {
    const entries = entriesOf(item.panel);
    const panel = panels[item.panel] || {};
    const y = item.y + shiftAt(item.y);
    const group = { x: item.x, y, cells: [] };
    groups.push(group);
    if (entries.length <= 1) {
      group.cells.push({ entry: entries[0] || null, x: item.x, y, w: item.w, h: item.h });
      continue;
    }
    if (panel.repeatDirection === 'v') {
      entries.forEach((e, i) => group.cells.push({ entry: e, x: item.x, y: y + i * item.h, w: item.w, h: item.h }));
      shifts.push({ from: item.y + item.h, by: (entries.length - 1) * item.h });
    } else {
      const perRow = Math.min(entries.length, panel.maxPerRow || 4);
      const w = Math.max(1, Math.floor(24 / perRow));
      entries.forEach((e, i) => group.cells.push({ entry: e, x: (i % perRow) * w, y: y + Math.floor(i / perRow) * item.h, w, h: item.h }));
      const lines = Math.ceil(entries.length / perRow);
      shifts.push({ from: item.y + item.h, by: (lines - 1) * item.h });
    }
  }
  return withoutOverlaps(groups);
}

const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Moves each group (a panel, or all the clones of a repeated one) down until none of its cells
 * overlaps a cell placed before it; groups are taken in reading order, so the earlier stays.
 */
function withoutOverlaps(groups) {
  const placed = [];
  for (const group of groups.slice().sort((a, b) => a.y - b.y || a.x - b.x)) {
    let down = 0;
    for (;;) {
      const moved = group.cells.map((c) => ({ ...c, y: c.y + down }));
      const hit = moved.map((c) => [c, placed.find((p) => overlaps(c, p))]).find(([, p]) => p);
      if (!hit) {
        placed.push(...moved);
        break;
      }
      down += hit[1].y + hit[1].h - hit[0].y;
    }
  }
  return placed;
}

/** The grid element of a section: 24 columns, rows of ROW_PX. */
export function gridElement(placed) {
  const rows = placed.reduce((n, p) => Math.max(n, p.y + p.h), 0);
  return h('div.dash-grid', { style: { gridTemplateRows: `repeat(${Math.max(1, rows)}, ${ROW_PX}px)` } });
}

/** Puts a card's element at its place. */
export function place(el, p) {
  el.style.gridColumn = `${p.x + 1} / span ${Math.min(24 - p.x, p.w)}`;
  el.style.gridRow = `${p.y + 1} / span ${p.h}`;
}
