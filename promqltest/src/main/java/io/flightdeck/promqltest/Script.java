package io.flightdeck.promqltest;

import java.util.List;

/** A parsed test script: its commands in file order. {@code name} is the file it came from. */
public record Script(String name, List<Command> commands) {

  public Script {
    commands = List.copyOf(commands);
  }

  public <T extends Command> List<T> commands(Class<T> type) {
    return commands.stream().filter(type::isInstance).map(type::cast).toList();
  }
}
