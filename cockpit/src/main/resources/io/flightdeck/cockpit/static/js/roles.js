// PromQL for what the run page draws: a run's training roles (by metric name, or by TensorBoard
// tag as in shared/docs/framework-tags.md) and the hardware the run uses (its GPUs and hosts).
import { quote, regexEscape } from './api.js';

/** The label naming runs: the server's --cockpit.run-label, read once at start (default run). */
export let RUN_LABEL = 'run';

/** Sets the run label from the server's flags. */
export function setRunLabel(label) {
  if (label) RUN_LABEL = label;
}

const ROLES = {
  loss: {
    names: 'llm_train_loss|train_loss|flightdeck:train_loss',
    tags: '(?:train[/_])?loss(?:_step|_epoch)?|Train/Samples/train_loss|lm loss|loss_metrics/global_avg_loss|(?:epoch|batch)_loss',
  },
  lr: {
    names: 'llm_train_learning_rate|llm_learning_rate|train_learning_rate|learning_rate|llm_train_lr',
    tags: '(?:train/)?learning[-_]rate|lr(?:/[^/]+(?:/[0-9]+)?)?|(?:.+/)?lr-[A-Za-z0-9_.]+(?:-[0-9]+)?(?:/[A-Za-z0-9_.]+)?|epoch_learning_rate(?:_.+)?|.+/cur_lr',
  },
  samples: {
    names: 'llm_train_samples_per_second|training_samples_per_second|train_samples_per_second|flightdeck:train_samples_per_second',
    tags: 'train/train_samples_per_second|train/(?:device/)?samples_per_sec|time/fps|ray/tune/timers/learn_throughput',
  },
  tokens: {
    names: 'llm_train_tokens_per_second|training_tokens_per_second|train_tokens_per_second',
    tags: 'train/train_tokens_per_second|.*tokens_per_sec(?:ond)?',
  },
  gradNorm: {
    names: 'llm_train_grad_norm|train_grad_norm|grad_norm',
    tags: '(?:train/)?grad_norm|.*grad[-_]norm.*',
  },
  eval: {
    names: 'llm_eval_.+|eval_.+',
    tags: 'eval/.+',
  },
};

/** The run's matcher, e.g. run="llama". */
export function runMatcher(run) {
  return `${RUN_LABEL}=${quote(run)}`;
}

/** Series of a role in a run, whether scraped (by name) or from TensorBoard (by tag). */
export function roleExpr(role, run) {
  const r = ROLES[role];
  // TensorBoard series always name their run directory with `run` (tensorboard/docs/naming.md).
  return `{__name__=~${quote(r.names)},${runMatcher(run)}} or tensorboard_scalar{run=${quote(run)},tag=~${quote(r.tags)}}`;
}

/**
 * A metric restricted to the run's GPUs: by UUID when every GPU has one, else per host by index.
 * `only` ("host/gpu") narrows it to one GPU. Null when the run has no GPUs.
 */
export function gpuExpr(metric, gpus, only) {
  let list = gpus || [];
  if (only) list = list.filter((g) => `${g.host}/${g.gpu}` === only);
  if (!list.length) return null;
  if (list.every((g) => g.uuid)) {
    return `${metric}{UUID=~${quote(list.map((g) => regexEscape(g.uuid)).join('|'))}}`;
  }
  const byHost = new Map();
  for (const g of list) {
    if (!byHost.has(g.host)) byHost.set(g.host, []);
    byHost.get(g.host).push(regexEscape(g.gpu));
  }
  return [...byHost].map(([host, idx]) =>
    `${metric}{Hostname=${quote(host)},gpu=~${quote(idx.join('|'))}}`).join(' or ');
}

/** A matcher on `instance` for the run's hosts, with or without a port. */
export function hostMatcher(hosts) {
  if (!hosts || !hosts.length) return null;
  return `instance=~${quote(`(?:${hosts.map(regexEscape).join('|')})(?::[0-9]+)?`)}`;
}
