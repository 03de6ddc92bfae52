package io.flightdeck.app;

import picocli.CommandLine;

/** Version and build facts, read from the jar's manifest when packaged. */
public final class BuildInfo implements CommandLine.IVersionProvider {
  public static String version() {
    String version = BuildInfo.class.getPackage().getImplementationVersion();
    return version == null ? "0.1.0-dev" : version;
  }

  @Override
  public String[] getVersion() {
    return new String[] {"flightdeck " + version() + " (Java " + Runtime.version() + ")"};
  }
}
