package io.flightdeck.model.relabel;

import static io.flightdeck.model.relabel.RelabelAction.DROP;
import static io.flightdeck.model.relabel.RelabelAction.DROPEQUAL;
import static io.flightdeck.model.relabel.RelabelAction.HASHMOD;
import static io.flightdeck.model.relabel.RelabelAction.KEEP;
import static io.flightdeck.model.relabel.RelabelAction.KEEPEQUAL;
import static io.flightdeck.model.relabel.RelabelAction.LABELDROP;
import static io.flightdeck.model.relabel.RelabelAction.LABELKEEP;
import static io.flightdeck.model.relabel.RelabelAction.LABELMAP;
import static io.flightdeck.model.relabel.RelabelAction.LOWERCASE;
import static io.flightdeck.model.relabel.RelabelAction.UPPERCASE;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Cases of Prometheus's model/relabel tests and of its configuration documentation. */
class RelabelerTest {

  private static RelabelConfig.Builder step() {
    return RelabelConfig.builder();
  }

  private static Labels run(Labels in, RelabelConfig.Builder... steps) {
    return Relabeler.process(
        in, List.of(steps).stream().map(RelabelConfig.Builder::build).toList());
  }

  @Test
  void backtrackingBombsOnHugeLabelValuesAreMatchedInLinearTime() {
    // A scraped or pushed label value is user input; java.util.regex would backtrack for hours.
    Labels in = Labels.of("__name__", "m", "k", "a".repeat(5_000));
    assertThat(run(in, step().action(KEEP).sourceLabels("k").regex("(.*a){25}b"))).isNull();
    assertThat(run(in, step().action(DROP).sourceLabels("k").regex("(.*a){25}b"))).isEqualTo(in);
    assertThat(
            run(
                in,
                step().sourceLabels("k").regex("(.*a){25}(a)").targetLabel("t").replacement("$2")))
        .isEqualTo(Labels.of("__name__", "m", "k", "a".repeat(5_000), "t", "a"));
  }

  @Nested
  class FromPrometheusTests {
    @Test
    void replaceWithBracedGroup() {
      Labels out =
          run(
              Labels.of("a", "foo", "b", "bar", "c", "baz"),
              step()
                  .sourceLabels("a")
                  .regex("f(.*)")
                  .targetLabel("d")
                  .replacement("ch${1}-ch${1}"));
      assertThat(out).isEqualTo(Labels.of("a", "foo", "b", "bar", "c", "baz", "d", "choo-choo"));
    }

    @Test
    void replaceChainsAndJoinsSources() {
      Labels out =
          run(
              Labels.of("a", "foo", "b", "bar", "c", "baz"),
              step()
                  .sourceLabels("a", "b")
                  .regex("f(.*);(.*)r")
                  .targetLabel("a")
                  .replacement("b${1}${2}m"),
              step()
                  .sourceLabels("c", "a")
                  .regex("(b).*b(.*)ba(.*)")
                  .targetLabel("d")
                  .replacement("$1$2$2$3"));
      assertThat(out).isEqualTo(Labels.of("a", "boobam", "b", "bar", "c", "baz", "d", "boooom"));
    }

    @Test
    void dropStopsLaterSteps() {
      assertThat(
              run(
                  Labels.of("a", "foo"),
                  step().sourceLabels("a").regex(".*o.*").action(DROP),
                  step()
                      .sourceLabels("a")
                      .regex("f(.*)")
                      .targetLabel("d")
                      .replacement("ch$1-ch$1")))
          .isNull();
      assertThat(
              run(
                  Labels.of("a", "foo", "b", "bar"),
                  step().sourceLabels("a").regex(".*o.*").action(DROP)))
          .isNull();
    }

    @Test
    void replaceWithInnerGroup() {
      assertThat(
              run(
                  Labels.of("a", "abc"),
                  step().sourceLabels("a").regex(".*(b).*").targetLabel("d").replacement("$1")))
          .isEqualTo(Labels.of("a", "abc", "d", "b"));
    }

    @Test
    void dropWithoutMatchKeeps() {
      Labels in = Labels.of("a", "foo");
      assertThat(run(in, step().sourceLabels("a").regex("no-match").action(DROP))).isEqualTo(in);
      // Anchored: "f|o" matches neither "foo" as a whole.
      assertThat(run(in, step().sourceLabels("a").regex("f|o").action(DROP))).isEqualTo(in);
    }

    @Test
    void keep() {
      Labels in = Labels.of("a", "foo");
      assertThat(run(in, step().sourceLabels("a").regex("no-match").action(KEEP))).isNull();
      assertThat(run(in, step().sourceLabels("a").regex("f.*").action(KEEP))).isEqualTo(in);
    }

    @Test
    void noReplacementWithoutMatch() {
      Labels in = Labels.of("a", "boo");
      assertThat(run(in, step().sourceLabels("a").regex("f").targetLabel("b").replacement("bar")))
          .isEqualTo(in);
    }

    @Test
    void hashmod() {
      assertThat(
              run(
                  Labels.of("a", "foo", "b", "bar", "c", "baz"),
                  step().sourceLabels("c").targetLabel("d").action(HASHMOD).modulus(1000)))
          .isEqualTo(Labels.of("a", "foo", "b", "bar", "c", "baz", "d", "976"));
      assertThat(
              run(
                  Labels.of("a", "foo\nbar"),
                  step().sourceLabels("a").targetLabel("b").action(HASHMOD).modulus(1000)))
          .isEqualTo(Labels.of("a", "foo\nbar", "b", "734"));
    }

    @Test
    void labelmap() {
      assertThat(
              run(
                  Labels.of("a", "foo", "b1", "bar", "b2", "baz"),
                  step().regex("(b.*)").replacement("bar_${1}").action(LABELMAP)))
          .isEqualTo(
              Labels.of("a", "foo", "b1", "bar", "b2", "baz", "bar_b1", "bar", "bar_b2", "baz"));
      assertThat(
              run(
                  Labels.of(
                      "a",
                      "foo",
                      "__meta_my_bar",
                      "aaa",
                      "__meta_my_baz",
                      "bbb",
                      "__meta_other",
                      "ccc"),
                  step().regex("__meta_(my.*)").replacement("${1}").action(LABELMAP)))
          .isEqualTo(
              Labels.of(
                  "a",
                  "foo",
                  "__meta_my_bar",
                  "aaa",
                  "__meta_my_baz",
                  "bbb",
                  "__meta_other",
                  "ccc",
                  "my_bar",
                  "aaa",
                  "my_baz",
                  "bbb"));
    }

    @Test
    void targetLabelFromGroup() {
      assertThat(
              run(
                  Labels.of("a", "some-name-value"),
                  step()
                      .sourceLabels("a")
                      .regex("some-([^-]+)-([^,]+)")
                      .replacement("${2}")
                      .targetLabel("${1}")))
          .isEqualTo(Labels.of("a", "some-name-value", "name", "value"));
    }

    @Test
    void missingGroupInReplacementSetsNothing() {
      Labels in = Labels.of("a", "some-name-value");
      assertThat(
              run(
                  in,
                  step()
                      .sourceLabels("a")
                      .regex("some-([^-]+)-([^,]+)")
                      .replacement("${3}")
                      .targetLabel("${1}")))
          .isEqualTo(in);
    }

    @Test
    void invalidExpandedTargetIsSkipped() {
      Labels in = Labels.of("a", "some-name-0");
      assertThat(
              run(
                  in,
                  step()
                      .sourceLabels("a")
                      .regex("some-([^-]+)-([^,]+)")
                      .replacement("${1}")
                      .targetLabel("${3}"),
                  step()
                      .sourceLabels("a")
                      .regex("some-([^-]+)-([^,]+)")
                      .replacement("${1}")
                      .targetLabel("${3}"),
                  step()
                      .sourceLabels("a")
                      .regex("some-([^-]+)(-[^,]+)")
                      .replacement("${1}")
                      .targetLabel("${3}")))
          .isEqualTo(in);
    }

    @Test
    void realLifeTags() {
      String tags = "path:/secret,job:some-job,label:foo=bar";
      assertThat(
              run(
                  Labels.of("__meta_sd_tags", tags),
                  step()
                      .sourceLabels("__meta_sd_tags")
                      .regex("(?:.+,|^)path:(/[^,]+).*")
                      .replacement("${1}")
                      .targetLabel("__metrics_path__"),
                  step()
                      .sourceLabels("__meta_sd_tags")
                      .regex("(?:.+,|^)job:([^,]+).*")
                      .replacement("${1}")
                      .targetLabel("job"),
                  step()
                      .sourceLabels("__meta_sd_tags")
                      .regex("(?:.+,|^)label:([^=]+)=([^,]+).*")
                      .replacement("${2}")
                      .targetLabel("${1}")))
          .isEqualTo(
              Labels.of(
                  "__meta_sd_tags",
                  tags,
                  "__metrics_path__",
                  "/secret",
                  "job",
                  "some-job",
                  "foo",
                  "bar"));
    }

    @Test
    void labeldropThenReplaceThenKeep() {
      String port = "__meta_kubernetes_pod_container_port_name";
      String annotation = "__meta_kubernetes_pod_annotation_XXX_metrics_port";
      assertThat(
              run(
                  Labels.of(port, "foo", annotation, "9091"),
                  step().regex("^" + port + "$").action(LABELDROP),
                  step()
                      .sourceLabels(annotation)
                      .regex("(.+)")
                      .replacement("metrics")
                      .targetLabel(port),
                  step().sourceLabels(port).regex("^metrics$").action(KEEP)))
          .isEqualTo(Labels.of(annotation, "9091", port, "metrics"));
    }

    @Test
    void labelkeepAndLabeldrop() {
      Labels in = Labels.of("a", "foo", "b1", "bar", "b2", "baz");
      assertThat(run(in, step().regex("(b.*)").action(LABELKEEP)))
          .isEqualTo(Labels.of("b1", "bar", "b2", "baz"));
      assertThat(run(in, step().regex("(b.*)").action(LABELDROP))).isEqualTo(Labels.of("a", "foo"));
    }

    @Test
    void upperAndLowerCase() {
      assertThat(
              run(
                  Labels.of("foo", "bAr123Foo"),
                  step().sourceLabels("foo").action(UPPERCASE).targetLabel("foo_uppercase"),
                  step().sourceLabels("foo").action(LOWERCASE).targetLabel("foo_lowercase")))
          .isEqualTo(
              Labels.of(
                  "foo", "bAr123Foo", "foo_lowercase", "bar123foo", "foo_uppercase", "BAR123FOO"));
    }

    @Test
    void keepequalAndDropequal() {
      Labels in = Labels.of("__tmp_port", "1234", "__port1", "1234", "__port2", "5678");
      assertThat(
              run(in, step().sourceLabels("__tmp_port").action(KEEPEQUAL).targetLabel("__port1")))
          .isEqualTo(in);
      assertThat(
              run(in, step().sourceLabels("__tmp_port").action(DROPEQUAL).targetLabel("__port1")))
          .isNull();
      assertThat(
              run(in, step().sourceLabels("__tmp_port").action(DROPEQUAL).targetLabel("__port2")))
          .isEqualTo(in);
      assertThat(
              run(in, step().sourceLabels("__tmp_port").action(KEEPEQUAL).targetLabel("__port2")))
          .isNull();
    }
  }

  @Nested
  class FromTheDocumentation {
    @Test
    void regexIsAnchoredAtBothEnds() {
      Labels in = Labels.of("job", "foobar");
      assertThat(run(in, step().sourceLabels("job").regex("foo").action(KEEP))).isNull();
      assertThat(run(in, step().sourceLabels("job").regex(".*foo.*").action(KEEP))).isEqualTo(in);
    }

    @Test
    void defaultsCopySourceToTarget() {
      assertThat(run(Labels.of("a", "x"), step().sourceLabels("a").targetLabel("b")))
          .isEqualTo(Labels.of("a", "x", "b", "x"));
    }

    @Test
    void missingSourceLabelsJoinAsEmptyStrings() {
      assertThat(
              run(
                  Labels.of("a", "x"),
                  step().sourceLabels("a", "missing", "a").separator("|").targetLabel("b")))
          .isEqualTo(Labels.of("a", "x", "b", "x||x"));
    }

    @Test
    void exampleFromConfGoodYml() {
      assertThat(
              run(
                  Labels.of("job", "x", "__meta_dns_name", "some-regex"),
                  step()
                      .sourceLabels("job", "__meta_dns_name")
                      .regex("(.*)some-[regex]")
                      .targetLabel("job")
                      .replacement("foo-${1}")))
          .isEqualTo(Labels.of("job", "x", "__meta_dns_name", "some-regex"));
      assertThat(
              run(
                  Labels.of("job", "x", "__meta_dns_name", "some-r"),
                  step()
                      .sourceLabels("job", "__meta_dns_name")
                      .regex("(.*)some-[regex]")
                      .targetLabel("job")
                      .replacement("foo-${1}")))
          .isEqualTo(Labels.of("job", "foo-x;", "__meta_dns_name", "some-r"));
    }

    @Test
    void addressAndPortFromAnnotation() {
      assertThat(
              run(
                  Labels.of(
                      "__address__",
                      "10.0.0.1:8080",
                      "__meta_kubernetes_pod_annotation_port",
                      "9102"),
                  step()
                      .sourceLabels("__address__", "__meta_kubernetes_pod_annotation_port")
                      .regex("([^:]+)(?::\\d+)?;(\\d+)")
                      .replacement("$1:$2")
                      .targetLabel("__address__")))
          .isEqualTo(
              Labels.of(
                  "__address__", "10.0.0.1:9102", "__meta_kubernetes_pod_annotation_port", "9102"));
    }

    @Test
    void labelmapCopiesKubernetesNodeLabels() {
      assertThat(
              run(
                  Labels.of("__meta_kubernetes_node_label_zone", "a", "instance", "n1"),
                  step().regex("__meta_kubernetes_node_label_(.+)").action(LABELMAP)))
          .isEqualTo(
              Labels.of("__meta_kubernetes_node_label_zone", "a", "instance", "n1", "zone", "a"));
    }

    @Test
    void constantReplacementSetsALabel() {
      assertThat(run(Labels.of("a", "x"), step().targetLabel("env").replacement("prod")))
          .isEqualTo(Labels.of("a", "x", "env", "prod"));
    }

    @Test
    void emptyReplacementRemovesTheTarget() {
      assertThat(
              run(
                  Labels.of("host", "h", "a", "x"),
                  step().sourceLabels("host").targetLabel("host").replacement("")))
          .isEqualTo(Labels.of("a", "x"));
    }

    @Test
    void dropMetricsByName() {
      List<RelabelConfig> steps =
          List.of(step().sourceLabels("__name__").regex("go_.*|process_.*").action(DROP).build());
      assertThat(Relabeler.process(Labels.of("__name__", "go_goroutines"), steps)).isNull();
      assertThat(Relabeler.process(Labels.of("__name__", "up"), steps))
          .isEqualTo(Labels.of("__name__", "up"));
    }

    @Test
    void namedGroupsExpand() {
      assertThat(
              run(
                  Labels.of("a", "k=v"),
                  step()
                      .sourceLabels("a")
                      .regex("(?P<key>[^=]+)=(?P<val>.*)")
                      .targetLabel("${key}")
                      .replacement("$val")))
          .isEqualTo(Labels.of("a", "k=v", "k", "v"));
    }

    @Test
    void caseMappingIsPerCodePointAsInGo() {
      assertThat(
              run(
                  Labels.of("a", "straße"),
                  step().sourceLabels("a").action(UPPERCASE).targetLabel("b")))
          .isEqualTo(Labels.of("a", "straße", "b", "STRAßE"));
    }

    @Test
    void emptyConfigListReturnsTheInput() {
      Labels in = Labels.of("a", "1");
      assertThat(Relabeler.process(in, List.of())).isEqualTo(in);
    }
  }
}
