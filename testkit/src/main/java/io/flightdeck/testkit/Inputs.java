package io.flightdeck.testkit;

import java.util.ArrayList;
import java.util.List;

/**
 * What a property's body draws its inputs from, one case at a time. Each input is drawn under a
 * name, which a failure report prints with its value.
 */
public final class Inputs {
  private final Choices choices;
  private final boolean describe;
  private final List<String> described = new ArrayList<>();
  private final List<String> labels = new ArrayList<>();

  /**
   * @param describe whether to print each value as it is drawn (for a report: the body may change a
   *     value after drawing it)
   */
  Inputs(Choices choices, boolean describe) {
    this.choices = choices;
    this.describe = describe;
  }

  public <T> T draw(String name, Gen<T> gen) {
    T value = gen.generate(choices);
    if (describe) {
      described.add(name + " = " + ValueFormat.format(value));
    }
    return value;
  }

  /**
   * Counts this case under {@code label}, so that a test can check afterwards, through the {@link
   * Coverage} that {@link Property#check} returns, that its generators reach what they must.
   */
  public void classify(String label) {
    labels.add(label);
  }

  Choices choices() {
    return choices;
  }

  List<String> described() {
    return described;
  }

  List<String> labels() {
    return labels;
  }
}
