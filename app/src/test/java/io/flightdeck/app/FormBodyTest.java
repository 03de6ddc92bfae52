package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FormBodyTest {
  private static Map<String, List<String>> parse(String body) {
    return FormBody.parse(body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void decodesPairsRepeatsAndEmptyValues() {
    Map<String, List<String>> form =
        parse(
            "query=sum+by+(job)+(rate(x%5B5m%5D))&match%5B%5D=up&match%5B%5D=a%3D%22%C3%A9%22&time=&flag");
    assertThat(form.get("query")).containsExactly("sum by (job) (rate(x[5m]))");
    assertThat(form.get("match[]")).containsExactly("up", "a=\"é\"");
    assertThat(form.get("time")).containsExactly("");
    assertThat(form.get("flag")).containsExactly("");
  }

  @Test
  void skipsMalformedPairsAndKeepsTheRestAsGoDoes() {
    Map<String, List<String>> form = parse("a=%zz&b=1&&c%=2&d;e=3&g=h;i&f=x=y");
    assertThat(form).containsOnlyKeys("b", "f");
    assertThat(form.get("f")).containsExactly("x=y"); // split on the first '=' only
  }

  @Test
  void anEmptyBodyHasNoParameters() {
    assertThat(parse("")).isEmpty();
  }
}
