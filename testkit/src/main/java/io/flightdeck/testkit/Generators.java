package io.flightdeck.testkit;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ready-made generators. Integers shrink towards zero (or the bound nearest it), lists and strings
 * towards fewer elements and earlier ones, alternatives towards the first listed.
 */
public final class Generators {
  /**
   * The longest collection or string where a test names no bound: the bound the properties had
   * before they moved to this runner.
   */
  public static final int DEFAULT_MAX_SIZE = 255;

  private Generators() {}

  public static Gen<Integer> integers(int min, int max) {
    return c -> c.intBetween(min, max);
  }

  /** Any int. */
  public static Gen<Integer> ints() {
    return integers(Integer.MIN_VALUE, Integer.MAX_VALUE);
  }

  public static Gen<Long> longs(long min, long max) {
    return c -> c.longBetween(min, max);
  }

  /** Any long. */
  public static Gen<Long> longs() {
    return longs(Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /** Any byte. */
  public static Gen<Byte> bytes() {
    return c -> (byte) c.intBetween(Byte.MIN_VALUE, Byte.MAX_VALUE);
  }

  public static Gen<Boolean> booleans() {
    return Choices::nextBoolean;
  }

  /** One of the values, equally likely, shrinking towards the first. */
  @SafeVarargs
  public static <T> Gen<T> of(T... values) {
    return of(List.of(values));
  }

  public static <T> Gen<T> of(List<T> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values to choose from");
    }
    List<T> copy = List.copyOf(values);
    return c -> copy.get(c.intBetween(0, copy.size() - 1));
  }

  public static <E extends Enum<E>> Gen<E> enumValues(Class<E> type) {
    return of(type.getEnumConstants());
  }

  public static <T> Gen<T> constant(T value) {
    return c -> value;
  }

  /** A value of one of the generators, each equally likely, shrinking towards the first. */
  @SafeVarargs
  public static <T> Gen<T> oneOf(Gen<? extends T>... alternatives) {
    List<Gen<? extends T>> copy = List.of(alternatives);
    return c -> copy.get(c.intBetween(0, copy.size() - 1)).generate(c);
  }

  /** A generator with its weight, for {@link #frequency}. */
  public record Weighted<T>(int weight, Gen<? extends T> gen) {}

  public static <T> Weighted<T> weighted(int weight, Gen<? extends T> gen) {
    return new Weighted<>(weight, gen);
  }

  /** A value of one of the generators, taken in proportion to its weight. */
  @SafeVarargs
  public static <T> Gen<T> frequency(Weighted<? extends T>... alternatives) {
    List<Weighted<? extends T>> copy = List.of(alternatives);
    int[] weights = copy.stream().mapToInt(Weighted::weight).toArray();
    return c -> copy.get(c.weightedIndex(weights)).gen().generate(c);
  }

  /**
   * Lists of {@code minSize} to {@code maxSize} elements. Before each element past the minimum a
   * choice says whether one more follows, so that shrinking removes an element by deleting its
   * choices.
   */
  public static <T> Gen<List<T>> listOf(Gen<T> element, int minSize, int maxSize) {
    if (minSize < 0 || minSize > maxSize) {
      throw new IllegalArgumentException("bad list size range [" + minSize + ", " + maxSize + "]");
    }
    return c -> {
      int target = c.targetSize(minSize, maxSize);
      List<T> out = new ArrayList<>();
      while (out.size() < minSize) {
        out.add(element.generate(c));
      }
      while (out.size() < maxSize && c.more(out.size() < target)) {
        out.add(element.generate(c));
      }
      return out;
    };
  }

  /**
   * Maps of at most {@code maxSize} entries (equal keys collapse, so they are often fewer), in the
   * order the keys were drawn; a case with fewer than {@code minSize} distinct keys is discarded.
   */
  public static <K, V> Gen<Map<K, V>> mapOf(Gen<K> keys, Gen<V> values, int minSize, int maxSize) {
    Gen<Map.Entry<K, V>> entry = c -> Map.entry(keys.generate(c), values.generate(c));
    return listOf(entry, minSize, maxSize)
        .map(
            entries -> {
              Map<K, V> map = new LinkedHashMap<>();
              entries.forEach(e -> map.put(e.getKey(), e.getValue()));
              return map;
            })
        .filter(map -> map.size() >= minSize);
  }

  /** The values in any order; shrinks towards the order given. */
  public static <T> Gen<List<T>> shuffle(List<T> values) {
    return c -> {
      List<T> out = new ArrayList<>(values);
      for (int i = out.size() - 1; i > 0; i--) {
        Collections.swap(out, i, i - c.intBetween(0, i));
      }
      return out;
    };
  }

  public static Gen<byte[]> byteArrays(int minSize, int maxSize) {
    return listOf(bytes(), minSize, maxSize)
        .map(
            list -> {
              byte[] out = new byte[list.size()];
              for (int i = 0; i < out.length; i++) {
                out[i] = list.get(i);
              }
              return out;
            });
  }

  /** One of the characters of {@code alphabet}, shrinking towards its first. */
  public static Gen<Character> charsOf(String alphabet) {
    if (alphabet.isEmpty()) {
      throw new IllegalArgumentException("empty alphabet");
    }
    return c -> alphabet.charAt(c.intBetween(0, alphabet.length() - 1));
  }

  /** A character in {@code [from, to]}, shrinking towards {@code from}. */
  public static Gen<Character> charRange(char from, char to) {
    return c -> (char) c.intBetween(from, to);
  }

  /** ASCII letters, {@code a-z} and {@code A-Z}. */
  public static Gen<Character> alphaChars() {
    return oneOf(charRange('a', 'z'), charRange('A', 'Z'));
  }

  public static Gen<Character> numericChars() {
    return charRange('0', '9');
  }

  /** Strings of {@code minLength} to {@code maxLength} characters from {@code chars}. */
  public static Gen<String> strings(Gen<Character> chars, int minLength, int maxLength) {
    return listOf(chars, minLength, maxLength)
        .map(
            list -> {
              StringBuilder sb = new StringBuilder(list.size());
              list.forEach(sb::append);
              return sb.toString();
            });
  }

  /**
   * Any text of {@code minLength} to {@code maxLength} chars (UTF-16 units): mostly printable
   * ASCII, with control characters, the rest of the BMP and characters beyond it (as surrogate
   * pairs); one string in five may also hold lone surrogates, which have no UTF-8 form.
   */
  public static Gen<String> strings(int minLength, int maxLength) {
    Gen<String> valid = text(VALID_TEXT, minLength, maxLength);
    Gen<String> withLoneSurrogates =
        text(
            frequency(weighted(10, VALID_TEXT), weighted(1, LONE_SURROGATE)), minLength, maxLength);
    return frequency(weighted(4, valid), weighted(1, withLoneSurrogates));
  }

  /**
   * Text that UTF-8 can carry, of {@code minLength} to {@code maxLength} chars: as {@link
   * #strings(int, int)} without lone surrogates (a surrogate pair is never cut in two).
   */
  public static Gen<String> validStrings(int minLength, int maxLength) {
    return listOf(VALID_TEXT, minLength, maxLength)
        .map(list -> String.join("", list))
        .map(
            joined ->
                joined.length() <= maxLength
                    ? joined
                    : joined.substring(
                        0,
                        Character.isHighSurrogate(joined.charAt(maxLength - 1))
                            ? maxLength - 1
                            : maxLength))
        .filter(text -> text.length() >= minLength);
  }

  /** Text of up to 255 chars that UTF-8 can carry, as {@link #validStrings(int, int)}. */
  public static Gen<String> validStrings() {
    return validStrings(0, DEFAULT_MAX_SIZE);
  }

  /** Any text of up to 255 chars, as {@link #strings(int, int)}. */
  public static Gen<String> strings() {
    return strings(0, DEFAULT_MAX_SIZE);
  }

  private static Gen<String> codePoints(int from, int to) {
    return c -> Character.toString(c.intBetween(from, to));
  }

  /** A BMP character above ASCII that is no surrogate. */
  private static final Gen<String> BMP_ABOVE_ASCII =
      c -> {
        int unit = c.intBetween(0x80, 0xFFFF - 0x800);
        return Character.toString(unit >= Character.MIN_SURROGATE ? unit + 0x800 : unit);
      };

  private static final Gen<String> VALID_TEXT =
      frequency(
          weighted(6, codePoints(' ', '~')),
          weighted(1, c -> Character.toString(c.nextBoolean() ? 0x7F : c.intBetween(0, 0x1F))),
          weighted(2, BMP_ABOVE_ASCII),
          weighted(
              1, codePoints(Character.MIN_SUPPLEMENTARY_CODE_POINT, Character.MAX_CODE_POINT)));

  private static final Gen<String> LONE_SURROGATE =
      c -> String.valueOf((char) c.intBetween(Character.MIN_SURROGATE, Character.MAX_SURROGATE));

  /** Pieces of one or two chars joined, cut to {@code maxLength} chars. */
  private static Gen<String> text(Gen<String> pieces, int minLength, int maxLength) {
    return listOf(pieces, minLength, maxLength)
        .map(
            list -> {
              String joined = String.join("", list);
              return joined.length() > maxLength ? joined.substring(0, maxLength) : joined;
            });
  }

  /**
   * Any finite double: small whole numbers, decimals of two places at any magnitude, any finite bit
   * pattern (subnormals included), and the edges: ±0, ±1, ±0.01, the smallest and largest.
   */
  public static Gen<Double> doubles() {
    Gen<Double> decimalsOfAnyMagnitude =
        c -> {
          long unscaled = c.longBetween(Long.MIN_VALUE, Long.MAX_VALUE);
          // Up to 9.2e18 * 1e288: below Double.MAX_VALUE.
          int exponent = c.intBetween(-2, 288);
          return new BigDecimal(java.math.BigInteger.valueOf(unscaled), -exponent).doubleValue();
        };
    Gen<Double> finiteBits =
        longs()
            .map(
                bits -> {
                  double d = Double.longBitsToDouble(bits);
                  // An all-ones exponent (infinity, NaN) loses its top bit: a finite double.
                  return Double.isFinite(d) ? d : Double.longBitsToDouble(bits ^ (1L << 62));
                });
    return frequency(
        weighted(2, integers(-100, 100).map(Integer::doubleValue)),
        weighted(3, decimalsOfAnyMagnitude),
        weighted(3, finiteBits),
        weighted(
            1,
            of(
                0.0,
                -0.0,
                1.0,
                -1.0,
                0.01,
                -0.01,
                Double.MIN_VALUE,
                -Double.MIN_VALUE,
                Double.MIN_NORMAL,
                Double.MAX_VALUE,
                -Double.MAX_VALUE)));
  }

  /**
   * Any double at all: those of {@link #doubles()}, the infinities, NaNs with several payloads and
   * both signs, and any bit pattern.
   */
  public static Gen<Double> anyDoubles() {
    return frequency(
        weighted(8, doubles()),
        weighted(
            1,
            of(
                Double.NaN,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                Double.longBitsToDouble(0x7ff0000000000001L),
                Double.longBitsToDouble(0xfff8000000000001L),
                Double.longBitsToDouble(0x7ff8000000000001L))),
        weighted(1, longs().map(Double::longBitsToDouble)));
  }

  /**
   * Decimals of {@code scale} places in {@code [min, max]}, each the double nearest its decimal,
   * shrinking towards the one nearest zero.
   */
  public static Gen<Double> decimals(double min, double max, int scale) {
    long lowest =
        new BigDecimal(min).setScale(scale, RoundingMode.CEILING).unscaledValue().longValueExact();
    long highest =
        new BigDecimal(max).setScale(scale, RoundingMode.FLOOR).unscaledValue().longValueExact();
    return longs(lowest, highest)
        .map(unscaled -> BigDecimal.valueOf(unscaled, scale).doubleValue());
  }

  /** Any finite float: whole numbers, decimals, any finite bit pattern, and the edges. */
  public static Gen<Float> floats() {
    Gen<Float> finiteBits =
        ints()
            .map(
                bits -> {
                  float f = Float.intBitsToFloat(bits);
                  return Float.isFinite(f) ? f : Float.intBitsToFloat(bits ^ (1 << 30));
                });
    return frequency(
        weighted(2, integers(-100, 100).map(Integer::floatValue)),
        weighted(3, longs().map(m -> BigDecimal.valueOf(m, 2).floatValue())),
        weighted(3, finiteBits),
        weighted(
            1,
            of(
                0f,
                -0f,
                1f,
                -1f,
                Float.MIN_VALUE,
                Float.MIN_NORMAL,
                Float.MAX_VALUE,
                -Float.MAX_VALUE)));
  }

  /** Floats nearest the decimals of two places in {@code [min, max]}. */
  public static Gen<Float> floats(float min, float max) {
    return decimals(min, max, 2).map(Double::floatValue);
  }
}
