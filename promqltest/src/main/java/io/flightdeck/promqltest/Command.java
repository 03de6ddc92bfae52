package io.flightdeck.promqltest;

/** One command of a script, in file order; commands run one after another against one storage. */
public sealed interface Command permits ClearCommand, LoadCommand, EvalCommand {

  /** The 1-based line of the command's header in the script. */
  int line();
}
