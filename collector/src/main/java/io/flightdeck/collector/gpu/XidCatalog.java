package io.flightdeck.collector.gpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Short descriptions of Xid codes, read from {@code xid-catalog.tsv} beside this class so the table
 * can follow NVIDIA's catalog without code changes. Immutable and thread-safe.
 */
final class XidCatalog {
  private static final String RESOURCE = "xid-catalog.tsv";

  private final Map<Long, String> descriptions;

  private XidCatalog(Map<Long, String> descriptions) {
    this.descriptions = Map.copyOf(descriptions);
  }

  static XidCatalog load() {
    try (InputStream in = XidCatalog.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      Map<Long, String> table = new TreeMap<>();
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        int tab = line.indexOf('\t');
        table.put(Long.parseLong(line.substring(0, tab)), line.substring(tab + 1).strip());
      }
      return new XidCatalog(table);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The description of {@code xid}, or a generic text for codes the table does not know. */
  String describe(long xid) {
    String known = descriptions.get(xid);
    return known != null ? known : "Xid " + xid + " (not in the catalog)";
  }
}
