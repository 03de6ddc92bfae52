package io.flightdeck.model.relabel;

import com.google.re2j.Matcher;
import io.flightdeck.model.Labels;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Applies relabelling steps in order, with Prometheus's semantics. Stateless and thread-safe.
 * Setting a label to the empty string removes it.
 */
public final class Relabeler {
  private Relabeler() {}

  /** The relabelled set, or null when a step drops it. The input is not modified. */
  public static Labels process(Labels labels, List<RelabelConfig> configs) {
    Map<String, String> working = new TreeMap<>();
    labels.forEach(working::put);
    for (RelabelConfig config : configs) {
      if (!apply(config, working)) {
        return null;
      }
    }
    return Labels.fromMap(working);
  }

  private static boolean apply(RelabelConfig c, Map<String, String> lb) {
    String val = joinedSources(c, lb);
    switch (c.action()) {
      case DROP -> {
        return !c.regex().matches(val);
      }
      case KEEP -> {
        return c.regex().matches(val);
      }
      case DROPEQUAL -> {
        return !get(lb, c.targetLabel()).equals(val);
      }
      case KEEPEQUAL -> {
        return get(lb, c.targetLabel()).equals(val);
      }
      case REPLACE -> replace(c, val, lb);
      case LOWERCASE -> set(lb, c.targetLabel(), mapCase(val, false));
      case UPPERCASE -> set(lb, c.targetLabel(), mapCase(val, true));
      case HASHMOD ->
          set(
              lb,
              c.targetLabel(),
              Long.toUnsignedString(Long.remainderUnsigned(hash(val), c.modulus())));
      case LABELMAP -> {
        // Iterate over a copy: new names must not be mapped again.
        for (Map.Entry<String, String> e : new TreeMap<>(lb).entrySet()) {
          Matcher m = c.regex().match(e.getKey());
          if (m != null) {
            String name = Template.expand(c.replacement(), m, c.regex().pattern().namedGroups());
            set(lb, name, e.getValue());
          }
        }
      }
      case LABELDROP -> lb.keySet().removeIf(c.regex()::matches);
      case LABELKEEP -> lb.keySet().removeIf(name -> !c.regex().matches(name));
    }
    return true;
  }

  private static void replace(RelabelConfig c, String val, Map<String, String> lb) {
    // Prometheus's shortcut: a constant assignment needs no regex work.
    if (val.isEmpty()
        && c.regex().equals(RelabelRegex.DEFAULT)
        && !Template.hasReference(c.targetLabel())
        && !Template.hasReference(c.replacement())) {
      set(lb, c.targetLabel(), c.replacement());
      return;
    }
    Matcher m = c.regex().match(val);
    if (m == null) {
      return;
    }
    Map<String, Integer> names = c.regex().pattern().namedGroups();
    String target = Template.expand(c.targetLabel(), m, names);
    if (!LabelNames.isValid(target)) {
      return;
    }
    set(lb, target, Template.expand(c.replacement(), m, names));
  }

  private static String joinedSources(RelabelConfig c, Map<String, String> lb) {
    List<String> sources = c.sourceLabels();
    if (sources.size() == 1) {
      return get(lb, sources.get(0));
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < sources.size(); i++) {
      if (i > 0) {
        sb.append(c.separator());
      }
      sb.append(get(lb, sources.get(i)));
    }
    return sb.toString();
  }

  private static String get(Map<String, String> lb, String name) {
    return lb.getOrDefault(name, "");
  }

  private static void set(Map<String, String> lb, String name, String value) {
    if (value.isEmpty()) {
      lb.remove(name);
    } else {
      lb.put(name, value);
    }
  }

  /** Per code point, as Go's strings.ToLower/ToUpper: "ß" stays one letter. */
  private static String mapCase(String s, boolean upper) {
    StringBuilder sb = new StringBuilder(s.length());
    s.codePoints()
        .map(cp -> upper ? Character.toUpperCase(cp) : Character.toLowerCase(cp))
        .forEach(sb::appendCodePoint);
    return sb.toString();
  }

  /** Big-endian unsigned value of the last 8 bytes of the MD5 of the UTF-8 text. */
  private static long hash(String val) {
    byte[] md5;
    try {
      md5 = MessageDigest.getInstance("MD5").digest(val.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK provides MD5", e);
    }
    long h = 0;
    for (int i = 8; i < 16; i++) {
      h = (h << 8) | (md5[i] & 0xff);
    }
    return h;
  }
}
