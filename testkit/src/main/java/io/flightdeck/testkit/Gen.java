package io.flightdeck.testkit;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A generator of values from {@link Choices}. Any lambda over {@code Choices} is one, and values
 * combine by drawing in turn: {@code c -> new Sample(deltas.generate(c), values.generate(c))}.
 * Since a value is built from its choices alone, every generator shrinks with them.
 *
 * @see Generators for the ready-made ones
 */
@FunctionalInterface
public interface Gen<T> {
  /** Filters give up after this many values in a row that they refuse, and discard the case. */
  int FILTER_ATTEMPTS = 100;

  T generate(Choices choices);

  default <R> Gen<R> map(Function<? super T, ? extends R> mapper) {
    return c -> mapper.apply(generate(c));
  }

  /** A generator chosen by this one's value, drawing on the same choices. */
  default <R> Gen<R> flatMap(Function<? super T, ? extends Gen<? extends R>> mapper) {
    return c -> mapper.apply(generate(c)).generate(c);
  }

  /** Only values that {@code keep} accepts; the case is discarded when it accepts none of 100. */
  default Gen<T> filter(Predicate<? super T> keep) {
    return c -> {
      for (int attempt = 0; attempt < FILTER_ATTEMPTS; attempt++) {
        T value = generate(c);
        if (keep.test(value)) {
          return value;
        }
      }
      throw new Choices.Rejected("the filter refused " + FILTER_ATTEMPTS + " values in a row");
    };
  }

  /** Lists of this generator's values, of {@code minSize} to {@code maxSize} elements. */
  default Gen<List<T>> list(int minSize, int maxSize) {
    return Generators.listOf(this, minSize, maxSize);
  }
}
