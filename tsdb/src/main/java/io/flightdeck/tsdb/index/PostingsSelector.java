package io.flightdeck.tsdb.index;

import io.flightdeck.model.Matcher;
import io.flightdeck.storage.ReadCancellation;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/**
 * Turns label matchers into the set of matching series ids, over any index that lists the postings
 * of each label value. Shared by the head and the blocks so both answer identically.
 *
 * <p>A matcher that accepts the empty value ({@code a=""}, {@code a!="x"}, {@code a=~".*"}) also
 * selects series without the label, so it is answered by subtracting the non-matching values from
 * all series; other matchers are unions of the matching values. Literal values, alternations and
 * prefixes are looked up directly instead of testing every value.
 */
public final class PostingsSelector {
  /** The index being searched. Returned bitmaps must not be modified. */
  public interface Source {
    RoaringBitmap allPostings();

    /** Label values of one name, sorted, each with its postings. */
    NavigableMap<String, RoaringBitmap> valuesOf(String name);
  }

  private PostingsSelector() {}

  public static RoaringBitmap select(Source source, Matcher... matchers) {
    RoaringBitmap result = null;
    for (Matcher m : matchers) {
      if (!m.matchesEmpty()) {
        RoaringBitmap matching = matchingValues(source, m);
        result = result == null ? matching : RoaringBitmap.and(result, matching);
        if (result.isEmpty()) {
          return result;
        }
      }
    }
    if (result == null) {
      result = source.allPostings().clone();
    }
    for (Matcher m : matchers) {
      if (m.matchesEmpty()) {
        NavigableMap<String, RoaringBitmap> values = source.valuesOf(m.name());
        int turn = 0;
        for (Map.Entry<String, RoaringBitmap> entry : values.entrySet()) {
          ReadCancellation.checkpoint(++turn);
          if (!m.matches(entry.getKey())) {
            result.andNot(entry.getValue());
          }
        }
      }
    }
    return result;
  }

  /** Union of the postings of every value the (non-empty-matching) matcher accepts. */
  private static RoaringBitmap matchingValues(Source source, Matcher m) {
    NavigableMap<String, RoaringBitmap> values = source.valuesOf(m.name());
    RoaringBitmap union = new RoaringBitmap();
    if (m.type() == Matcher.Type.EQUAL) {
      RoaringBitmap ids = values.get(m.value());
      return ids == null ? union : ids.clone();
    }
    if (m.type() == Matcher.Type.REGEX) {
      Set<String> alternatives = m.literalAlternatives();
      if (alternatives != null) {
        for (String value : alternatives) {
          RoaringBitmap ids = values.get(value);
          if (ids != null) {
            union.or(ids);
          }
        }
        return union;
      }
      String prefix = m.literalPrefix();
      if (prefix != null) {
        for (RoaringBitmap ids :
            values.subMap(prefix, true, prefix + Character.MAX_VALUE, true).values()) {
          union.or(ids);
        }
        return union;
      }
    }
    int turn = 0;
    for (Map.Entry<String, RoaringBitmap> entry : values.entrySet()) {
      ReadCancellation.checkpoint(++turn);
      if (m.matches(entry.getKey())) {
        union.or(entry.getValue());
      }
    }
    return union;
  }
}
